import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import { type RunningServer, type ServeOptions, startServer } from '../../src/server.js';
import { type Receiver, startReceiver } from '../support/webhook-receiver.js';

// Real servers on loopback: --seed replays after restores, --data keeps snapshots, --snapshot
// loads a fixture at start.
const START = '2026-05-04T13:00:00.000Z';
const started: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const thing of started.reverse()) await thing.close();
});

async function server(options: Partial<ServeOptions> = {}): Promise<RunningServer> {
  const running = await startServer({
    port: 0,
    host: '127.0.0.1',
    clockMode: 'frozen',
    webhookHttpHosts: [],
    rateLimit: 0,
    publicUrl: 'http://sandbox.example',
    startTimeMs: Date.parse(START),
    credential: { clientId: DEFAULT_CLIENT_ID, clientSecret: DEFAULT_CLIENT_SECRET },
    log: { info: () => {}, error: (message, error) => console.error(message, error) },
    ...options,
  });
  // Closed once: some tests close a server themselves before the end.
  let closing: Promise<void> | undefined;
  const close = running.close;
  running.close = () => {
    closing ??= close();
    return closing;
  };
  started.push(running);
  return running;
}

class Client {
  transcript: string[] = [];
  token = '';
  constructor(readonly base: string) {}

  async call(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
    const headers: Record<string, string> = {};
    if (path === '/v3/auth/token') {
      headers.authorization = `Basic ${Buffer.from(`${DEFAULT_CLIENT_ID}:${DEFAULT_CLIENT_SECRET}`).toString('base64')}`;
    } else {
      headers.authorization = `Bearer ${this.token}`;
    }
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers,
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = (await res.text()).replace(/http:\/\/127\.0\.0\.1:\d+\/hooks/g, '<receiver>');
    this.transcript.push(`${method} ${path} -> ${res.status} ${res.headers.get('location') ?? ''} ${text}`);
    const parsed = JSON.parse(text) as Record<string, unknown>;
    if (path === '/v3/auth/token') this.token = String(parsed.access_token);
    return parsed;
  }

  async ok(method: string, path: string, body?: unknown, status = 200): Promise<Record<string, unknown>> {
    const answer = await this.call(method, path, body);
    const line = this.transcript.at(-1) ?? '';
    if (!line.includes(`-> ${status} `)) throw new Error(line);
    return answer;
  }
}

/** The same requests every time: a token, an endpoint, a credential, the happy path, reads. */
async function journey(client: Client, hooksUrl: string): Promise<string[]> {
  client.transcript = [];
  await client.ok('POST', '/v3/auth/token');
  await client.ok('POST', '/v3/webhooks/endpoints', { url: hooksUrl, events: ['*'] }, 201);
  await client.ok('POST', '/v3/auth/credentials', { name: 'billing' }, 201);
  const run = await client.ok('POST', '/v3/sandbox/scenarios/happy-path/runs', {});
  expect(run.status).toBe('passed');
  // The run's report has real-time step durations; everything it made is read back below.
  client.transcript.pop();
  await client.ok('GET', '/v3/customers?limit=100');
  await client.ok('GET', '/v3/credit-offers?limit=100');
  const loans = (await client.ok('GET', '/v3/loans?limit=100')) as { data: { id: string }[] };
  for (const loan of loans.data) await client.ok('GET', `/v3/loans/${loan.id}/transactions`);
  await client.ok('GET', '/v3/sandbox/events?limit=100');
  await client.ok('GET', '/v3/sandbox/clock');
  return [...client.transcript];
}

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  started.push(r);
  return r;
}

describe('snapshots on a real server', () => {
  it('under --seed, the same requests after each of two restores answer byte-identical bodies', async () => {
    const sandbox = await server({ seed: 'snapshot-seed' });
    const hooks = await receiver();
    const client = new Client(sandbox.url);
    await client.ok('POST', '/v3/auth/token');
    await client.ok('POST', '/v3/customers', { cpf: '52998224725', name: 'Base Customer' }, 201);
    await client.ok('POST', '/v3/sandbox/snapshots', { name: 'base' }, 201);

    const first = await journey(client, hooks.url);
    await sandbox.deps.webhooks.idle();
    await client.ok('POST', '/v3/sandbox/snapshots/base/restore');
    const second = await journey(client, hooks.url);
    await sandbox.deps.webhooks.idle();
    await client.ok('POST', '/v3/sandbox/snapshots/base/restore');
    const third = await journey(client, hooks.url);
    expect(first.length).toBeGreaterThan(8);
    // Credentials are not part of a snapshot: the one made after each restore needs a client id
    // no credential has yet, so only that id differs; every other byte is the same.
    const clientIds = (t: string[]) =>
      t.map((line) => /"client_id":"(cid_\w+)"/.exec(line)?.[1]).filter(Boolean);
    expect(new Set([...clientIds(first), ...clientIds(second), ...clientIds(third)]).size).toBe(3);
    const masked = (t: string[]) =>
      t.map((line) => line.replace(/"client_id":"cid_\w+"/, '"client_id":"<new>"'));
    expect(masked(second)).toEqual(masked(first));
    expect(masked(third)).toEqual(masked(first));
  });

  it('keeps snapshots in --data across a restart and restores them there', async () => {
    const dataFile = join(mkdtempSync(join(tmpdir(), 'snapshots-data-')), 'sandbox.json');
    const one = await server({ dataFile });
    const client = new Client(one.url);
    await client.ok('POST', '/v3/auth/token');
    await client.ok('POST', '/v3/customers', { cpf: '52998224725', name: 'Kept' }, 201);
    await client.ok('POST', '/v3/sandbox/snapshots', { name: 'one-customer' }, 201);
    const saved = await client.ok('GET', '/v3/customers');
    await client.ok('POST', '/v3/customers', { cpf: '11144477735', name: 'Later' }, 201);
    await client.ok('POST', '/v3/sandbox/clock/advance', { by: '3d' });
    await one.close();

    const two = await server({ dataFile });
    const again = new Client(two.url);
    await again.ok('POST', '/v3/auth/token');
    const list = (await again.ok('GET', '/v3/sandbox/snapshots')) as { data: { name: string }[] };
    expect(list.data.map((s) => s.name)).toEqual(['one-customer']);
    expect(((await again.ok('GET', '/v3/customers')) as { data: unknown[] }).data).toHaveLength(2);
    await again.ok('POST', '/v3/sandbox/snapshots/one-customer/restore');
    expect(await again.ok('GET', '/v3/customers')).toEqual(saved);
    expect(await again.ok('GET', '/v3/sandbox/clock')).toEqual({ now: START, frozen: true });
    await two.close();

    // The restore itself was written: a third start shows the restored world.
    const three = await server({ dataFile });
    const third = new Client(three.url);
    await third.ok('POST', '/v3/auth/token');
    expect(await third.ok('GET', '/v3/customers')).toEqual(saved);
  });

  it('loads --snapshot FILE into the default partner at start, and refuses to start on a bad file', async () => {
    const source = await server();
    const client = new Client(source.url);
    await client.ok('POST', '/v3/auth/token');
    await client.ok('POST', '/v3/customers', { cpf: '52998224725', name: 'Fixture' }, 201);
    await client.ok('POST', '/v3/sandbox/clock/advance', { by: '2d' });
    await client.ok('POST', '/v3/auth/token');
    await client.ok('POST', '/v3/sandbox/snapshots', { name: 'fixture' }, 201);
    const exported = await fetch(`${source.url}/v3/sandbox/snapshots/fixture/export?gzip=1`, {
      headers: { authorization: `Bearer ${client.token}` },
    });
    const dir = mkdtempSync(join(tmpdir(), 'snapshots-fixture-'));
    const file = join(dir, 'fixture.snapshot.json.gz');
    writeFileSync(file, Buffer.from(await exported.arrayBuffer()));

    const loaded = await server({ snapshotFile: file });
    const reader = new Client(loaded.url);
    await reader.ok('POST', '/v3/auth/token');
    expect(await reader.ok('GET', '/v3/customers')).toEqual(await client.ok('GET', '/v3/customers'));
    expect(await reader.ok('GET', '/v3/sandbox/clock')).toEqual(await client.ok('GET', '/v3/sandbox/clock'));
    const list = (await reader.ok('GET', '/v3/sandbox/snapshots')) as { data: { name: string }[] };
    expect(list.data.map((s) => s.name)).toEqual(['fixture']);

    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"format": "credit-sandbox-snapshot", "version": 9}');
    await expect(server({ snapshotFile: broken })).rejects.toThrow(
      /--snapshot .*broken\.json: Version 9 is unknown/,
    );
    await expect(server({ snapshotFile: join(dir, 'missing.json') })).rejects.toThrow(
      /cannot read it \(ENOENT\)/,
    );
  });
});
