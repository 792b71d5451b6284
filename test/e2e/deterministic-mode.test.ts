import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import { type RunningServer, startServer } from '../../src/server.js';
import { createTestSandbox } from '../support/sandbox.js';
import { type Receiver, startReceiver } from '../support/webhook-receiver.js';

// Two real servers on loopback with the same --seed, --clock frozen and --start-time must give the
// same bytes for the same journey, whatever the order the partners' requests interleave in.
const START = '2026-05-04T13:00:00.000Z';
const started: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const thing of started.reverse()) await thing.close();
});

async function server(seed: string): Promise<RunningServer> {
  const running = await startServer({
    port: 0,
    host: '127.0.0.1',
    clockMode: 'frozen',
    webhookHttpHosts: [],
    rateLimit: 0,
    // Fixed, so hosted-page URLs do not carry the random port each server listens on.
    publicUrl: 'http://sandbox.example',
    seed,
    startTimeMs: Date.parse(START),
    credential: { clientId: DEFAULT_CLIENT_ID, clientSecret: DEFAULT_CLIENT_SECRET },
    log: { info: () => {}, error: (message, error) => console.error(message, error) },
  });
  started.push(running);
  return running;
}

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  started.push(r);
  return r;
}

/** Every response of one partner's journey, as `METHOD path -> status body` lines. */
type Transcript = string[];

async function call(
  base: string,
  transcript: Transcript,
  method: string,
  path: string,
  options: { token?: string; basic?: [string, string]; body?: unknown } = {},
): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.basic)
    headers.authorization = `Basic ${Buffer.from(options.basic.join(':')).toString('base64')}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
  });
  // The receiver's URL is an input with a random port: the transcript names it, not its port.
  const text = (await res.text()).replace(/http:\/\/127\.0\.0\.1:\d+\/hooks/g, '<receiver>');
  transcript.push(`${method} ${path} -> ${res.status} ${res.headers.get('location') ?? ''} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** A partner's whole journey: credential, webhook endpoint, happy path to an active loan, reads. */
async function journey(
  base: string,
  partner: { client_id: string; client_secret: string },
  hooksUrl: string,
): Promise<Transcript> {
  const t: Transcript = [];
  const { access_token: token } = (await call(base, t, 'POST', '/v3/auth/token', {
    basic: [partner.client_id, partner.client_secret],
  })) as { access_token: string };
  await call(base, t, 'POST', '/v3/webhooks/endpoints', { token, body: { url: hooksUrl, events: ['*'] } });
  await call(base, t, 'POST', '/v3/auth/credentials', { token, body: { name: 'billing' } });
  const run = await call(base, t, 'POST', '/v3/sandbox/scenarios/happy-path/runs', { token, body: {} });
  expect(run.status).toBe('passed');
  // The run's report has real-time step durations; everything it made is read back below.
  t.pop();
  await call(base, t, 'GET', '/v3/customers?limit=100', { token });
  await call(base, t, 'GET', '/v3/credit-offers?limit=100', { token });
  const loans = (await call(base, t, 'GET', '/v3/loans?limit=100', { token })) as { data: { id: string }[] };
  for (const loan of loans.data) await call(base, t, 'GET', `/v3/loans/${loan.id}/transactions`, { token });
  await call(base, t, 'GET', '/v3/sandbox/events?limit=100', { token });
  await call(base, t, 'GET', '/v3/sandbox/clock', { token });
  return t;
}

interface Run {
  defaultToken: Transcript;
  partners: { a: Transcript; b: Transcript };
  /** Webhook bodies each receiver got, sorted (deliveries run concurrently across partners). */
  webhooks: { a: string[]; b: string[] };
}

async function scriptedRun(seed: string, interleave: 'sequential' | 'concurrent'): Promise<Run> {
  const sandbox = await server(seed);
  const base = sandbox.url;
  const defaultToken: Transcript = [];
  const { access_token: token } = (await call(base, defaultToken, 'POST', '/v3/auth/token', {
    basic: [DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET],
  })) as { access_token: string };
  const a = (await call(base, defaultToken, 'POST', '/v3/sandbox/partners', {
    token,
    body: { name: 'a' },
  })) as {
    client_id: string;
    client_secret: string;
  };
  const b = (await call(base, defaultToken, 'POST', '/v3/sandbox/partners', {
    token,
    body: { name: 'b' },
  })) as {
    client_id: string;
    client_secret: string;
  };
  const hooks = { a: await receiver(), b: await receiver() };
  let partners: Run['partners'];
  if (interleave === 'sequential') {
    const first = await journey(base, a, hooks.a.url);
    partners = { a: first, b: await journey(base, b, hooks.b.url) };
  } else {
    // B starts first and both run at once, so their requests interleave differently.
    const [tb, ta] = await Promise.all([journey(base, b, hooks.b.url), journey(base, a, hooks.a.url)]);
    partners = { a: ta, b: tb };
  }
  await sandbox.deps.webhooks.idle();
  const bodies = (r: Receiver) => r.received.map((w) => `${w.headers['webhook-id']} ${w.body}`).sort();
  return { defaultToken, partners, webhooks: { a: bodies(hooks.a), b: bodies(hooks.b) } };
}

describe('deterministic mode (--seed, --clock frozen, --start-time)', () => {
  it('gives byte-identical responses and webhook bodies for the same journey, each partner its own stream', async () => {
    const first = await scriptedRun('ci-seed-1', 'sequential');
    const second = await scriptedRun('ci-seed-1', 'concurrent');
    expect(second.defaultToken).toEqual(first.defaultToken);
    expect(second.partners.a).toEqual(first.partners.a);
    expect(second.partners.b).toEqual(first.partners.b);
    expect(first.webhooks.a.length).toBeGreaterThan(10);
    expect(second.webhooks).toEqual(first.webhooks);
    // Clocks start where --start-time says, and the two partners did not share values.
    expect(first.partners.a.join('\n')).toContain(START.slice(0, 10));
    const customers = (run: Transcript) => run.find((line) => line.startsWith('GET /v3/customers'));
    expect(customers(first.partners.a)).toContain('cust_');
    expect(customers(first.partners.a)).not.toEqual(customers(first.partners.b));
  });

  it('gives different values for a different seed', async () => {
    const one = await scriptedRun('ci-seed-1', 'sequential');
    const other = await scriptedRun('ci-seed-2', 'sequential');
    expect(other.defaultToken[0]).not.toEqual(one.defaultToken[0]);
    expect(other.partners.a[0]).toContain('access_token');
    expect(other.partners.a).not.toEqual(one.partners.a);
    expect(other.webhooks.a).not.toEqual(one.webhooks.a);
  });
});

describe('--start-time', () => {
  it('starts new partners there and puts a reset clock back there', async () => {
    const sandbox = createTestSandbox({ startTimeMs: Date.parse(START) });
    expect((await sandbox.json('GET', '/v3/sandbox/clock')).body).toEqual({ now: START, frozen: true });
    await sandbox.json('POST', '/v3/sandbox/clock/advance', { body: { by: '35d' } });
    const partner = await sandbox.json<{ created_at: string; clock: { now: string } }>(
      'POST',
      '/v3/sandbox/partners',
      {
        body: { name: 'later' },
      },
    );
    expect(partner.body).toMatchObject({ created_at: START, clock: { now: START } });
    expect((await sandbox.json('POST', '/v3/sandbox/reset')).status).toBe(200);
    expect((await sandbox.json('GET', '/v3/sandbox/clock')).body).toEqual({ now: START, frozen: true });
  });
});

describe('--seed with --data', () => {
  it('continues the streams after a restart instead of handing out the same ids again', async () => {
    const dataFile = join(mkdtempSync(join(tmpdir(), 'seeded-data-')), 'sandbox.json');
    const start = (withData: boolean) =>
      startServer({
        port: 0,
        host: '127.0.0.1',
        clockMode: 'frozen',
        webhookHttpHosts: [],
        rateLimit: 0,
        seed: 'restart',
        startTimeMs: Date.parse(START),
        dataFile: withData ? dataFile : undefined,
        credential: { clientId: DEFAULT_CLIENT_ID, clientSecret: DEFAULT_CLIENT_SECRET },
        log: { info: () => {}, error: (message, error) => console.error(message, error) },
      });
    const newPartner = async (server: RunningServer) => {
      const t: Transcript = [];
      const { access_token: token } = (await call(server.url, t, 'POST', '/v3/auth/token', {
        basic: [DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET],
      })) as { access_token: string };
      return (await call(server.url, t, 'POST', '/v3/sandbox/partners', { token, body: {} })) as {
        id: string;
      };
    };
    const first = await start(true);
    const before = await newPartner(first);
    await first.close();
    const restarted = await start(true);
    const after = await newPartner(restarted);
    await restarted.close();
    expect(after.id).not.toBe(before.id);
    // Without the file, the same seed starts the streams over: the first partner again.
    const fresh = await start(false);
    started.push(fresh);
    expect((await newPartner(fresh)).id).toBe(before.id);
  });
});
