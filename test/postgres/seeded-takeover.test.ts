import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import { type Receiver, startReceiver } from '../support/webhook-receiver.js';
import { freshDatabase, query } from './support/database.js';
import { type Instance, killInstance, startInstance, stopInstance } from './support/fleet.js';
import { type RoundRobinProxy, startProxy } from './support/round-robin-proxy.js';

// The same requests against one in-memory instance and against two shared-mode instances whose
// owner of the partner is killed (kill -9) half way: with the same --seed, every answer after the
// takeover is byte for byte the single instance's, because the partner's stream positions are rows
// that the new owner loads with the partner.
const START = '2026-05-04T13:00:00.000Z';
const SEEDED = ['--seed', 'shared-ci', '--start-time', START, '--public-url', 'http://sandbox.example'];

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

type Transcript = string[];

async function call(
  base: string,
  t: Transcript,
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
  const text = (await res.text()).replace(/http:\/\/127\.0\.0\.1:\d+\/hooks/g, '<receiver>');
  t.push(`${method} ${path} -> ${res.status} ${res.headers.get('location') ?? ''} ${text}`);
  return JSON.parse(text) as Record<string, unknown>;
}

interface Phases {
  /** Sent before the takeover (and answered by the instance that is then killed). */
  before(base: string): Promise<Transcript>;
  /** Sent after it. */
  after(base: string): Promise<Transcript>;
  partnerId(): string;
}

/** A partner made by the default one, then its journey in two halves. */
function script(hooksUrl: string): Phases {
  let partner: { id: string; client_id: string; client_secret: string } | undefined;
  let token = '';
  const run = async (base: string, t: Transcript) => {
    const result = await call(base, t, 'POST', '/v3/sandbox/scenarios/happy-path/runs', { token, body: {} });
    expect(result.status, JSON.stringify(result)).toBe('passed');
    // The report carries real-time step durations; what it made is read back below.
    t.pop();
  };
  return {
    partnerId: () => partner?.id ?? '',
    async before(base) {
      const t: Transcript = [];
      const admin = (await call(base, t, 'POST', '/v3/auth/token', {
        basic: [DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET],
      })) as { access_token: string };
      partner = (await call(base, t, 'POST', '/v3/sandbox/partners', {
        token: admin.access_token,
        body: { name: 'seeded' },
      })) as typeof partner;
      const issued = (await call(base, t, 'POST', '/v3/auth/token', {
        basic: [partner?.client_id ?? '', partner?.client_secret ?? ''],
      })) as { access_token: string };
      token = issued.access_token;
      await call(base, t, 'POST', '/v3/webhooks/endpoints', {
        token,
        body: { url: hooksUrl, events: ['*'] },
      });
      await call(base, t, 'POST', '/v3/auth/credentials', { token, body: { name: 'billing' } });
      await run(base, t);
      return t;
    },
    async after(base) {
      const t: Transcript = [];
      await call(base, t, 'POST', '/v3/auth/credentials', { token, body: { name: 'after the takeover' } });
      await run(base, t);
      await call(base, t, 'GET', '/v3/customers?limit=100', { token });
      await call(base, t, 'GET', '/v3/credit-offers?limit=100', { token });
      const loans = (await call(base, t, 'GET', '/v3/loans?limit=100', { token })) as {
        data: { id: string }[];
      };
      for (const loan of loans.data)
        await call(base, t, 'GET', `/v3/loans/${loan.id}/transactions`, { token });
      await call(base, t, 'GET', '/v3/sandbox/events?limit=100', { token });
      await call(base, t, 'GET', '/v3/webhooks/endpoints', { token });
      await call(base, t, 'GET', '/v3/sandbox/clock', { token });
      return t;
    },
  };
}

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  cleanups.push(() => r.close());
  return r;
}

async function instance(databaseUrl: string | undefined, extra: string[] = []): Promise<Instance> {
  const started = await startInstance(databaseUrl, [...SEEDED, '--hosted-safety', 'off', ...extra]);
  cleanups.push(() => stopInstance(started));
  return started;
}

describe('--seed with --database: a takeover in the middle of a seeded run', () => {
  it('answers after the takeover byte for byte what a single instance answers', {
    timeout: 300_000,
  }, async () => {
    // One instance, in memory: the reference.
    const single = await instance(undefined);
    const reference = script((await receiver()).url);
    const expected = [...(await reference.before(single.url)), ...(await reference.after(single.url))];
    await stopInstance(single);

    // Two instances on one database behind a round-robin proxy; shorter leases for a quicker
    // takeover (not the shortest: a loaded test machine would see false takeovers).
    const databaseUrl = await freshDatabase('seeded_takeover');
    // No default partner lifetime (a hosted fleet has one): `expires_at` answers null, as the
    // reference instance's do.
    const fleetArgs = ['--lease', '3000', '--partner-ttl', 'off'];
    const fleet = [await instance(databaseUrl, fleetArgs), await instance(databaseUrl, fleetArgs)];
    let alive = fleet;
    const proxy: RoundRobinProxy = await startProxy(() => alive.map((i) => i.url));
    cleanups.push(() => proxy.close());
    const shared = script((await receiver()).url);
    const before = await shared.before(proxy.url);

    // Kill -9 whichever instance holds the partner: its successor loads the stream positions.
    const [lease] = await query<{ owner_url: string }>(
      databaseUrl,
      'SELECT owner_url FROM partner_leases WHERE partner_id = $1',
      [shared.partnerId()],
    );
    const owner = fleet.find((i) => i.url === lease?.owner_url);
    expect(owner).toBeDefined();
    await killInstance(owner as Instance);
    alive = fleet.filter((i) => i !== owner);
    const after = await shared.after(proxy.url);
    const survivor = alive[0] as Instance;
    expect(survivor.output.join('\n')).toContain(`took over partner ${shared.partnerId()}`);

    expect([...before, ...after]).toEqual(expected);
    // Not trivially equal: the run after the takeover drew new ids (a fresh stream would repeat).
    const counters = await query<{ draws: number }>(
      databaseUrl,
      "SELECT (record->>'draws')::int AS draws FROM random_counters WHERE partner_id = $1",
      [shared.partnerId()],
    );
    expect(counters[0]?.draws).toBeGreaterThan(20);
    expect(after.join('\n').match(/"id":"cust_[0-9a-f]+"/g)?.length).toBeGreaterThanOrEqual(2);
  });
});
