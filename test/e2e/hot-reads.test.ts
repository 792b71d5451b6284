import { ServerResponse } from 'node:http';
import { Pool } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import { tokenCache } from '../../src/http/token-cache.js';
import { type RunningServer, type ServeOptions, startServer } from '../../src/server.js';

// The hot reads (src/http/hot-reads.ts) on a real server, against the full app answering the same
// requests (a trailing slash takes the full app's path). Nothing here times anything: it COUNTS
// what a request does (header writes, token verifications, access-log lines, request-log
// entries kept), so a change that adds per-request work or breaks a promise fails here.
let server: RunningServer | undefined;
let pool: Pool | undefined;

afterEach(async () => {
  await pool?.close();
  await server?.close();
  server = undefined;
  pool = undefined;
});

async function start(options: Partial<ServeOptions> = {}) {
  const lines: string[] = [];
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    clockMode: 'frozen',
    webhookHttpHosts: [],
    rateLimit: 1000,
    accessLog: 'pretty',
    accessLogWrite: (text) => lines.push(...text.split('\n').filter((l) => l !== '')),
    credential: { clientId: DEFAULT_CLIENT_ID, clientSecret: DEFAULT_CLIENT_SECRET },
    log: { info: () => {}, error: (message, error) => console.error(message, error) },
    ...options,
  });
  const url = server.url;
  pool = new Pool(url, { connections: 8 });
  const basic = Buffer.from(`${DEFAULT_CLIENT_ID}:${DEFAULT_CLIENT_SECRET}`).toString('base64');
  const token = (await (
    await fetch(`${url}/v3/auth/token`, { method: 'POST', headers: { authorization: `Basic ${basic}` } })
  ).json()) as { access_token: string };
  const headers = { authorization: `Bearer ${token.access_token}`, 'user-agent': 'hot-test/1' };
  const created = await fetch(`${url}/v3/customers`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ cpf: '529.982.247-25', name: 'Hot Read', email: 'hot@example.com' }),
  });
  const customerId = ((await created.json()) as { id: string }).id;
  return { url, headers, customerId, lines, deps: server.deps };
}

async function get(path: string, headers: Record<string, string>) {
  const res = await pool?.request({ method: 'GET', path, headers });
  if (!res) throw new Error('no pool');
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

/** Counts calls of a ServerResponse method while `work` runs (the real method still runs). */
async function counting<T>(method: 'setHeader' | 'writeHead', work: () => Promise<T>) {
  const original = ServerResponse.prototype[method] as (...args: unknown[]) => unknown;
  let calls = 0;
  (ServerResponse.prototype as unknown as Record<string, unknown>)[method] = function (
    this: ServerResponse,
    ...args: unknown[]
  ) {
    calls += 1;
    return original.apply(this, args);
  };
  try {
    const result = await work();
    return { result, calls };
  } finally {
    (ServerResponse.prototype as unknown as Record<string, unknown>)[method] = original;
  }
}

describe('hot reads', () => {
  it('answer what the full app answers, with the same headers and the same request-log entry', async () => {
    const { headers, customerId, deps } = await start();
    for (const path of ['/v3/sandbox/clock', `/v3/customers/${customerId}`]) {
      const hot = await get(path, headers);
      const full = await get(`${path}/`, headers);
      expect(hot.status).toBe(200);
      expect(hot.text).toBe(full.text);
      const names = (h: Record<string, unknown>) => Object.keys(h).sort();
      expect(names(hot.headers)).toEqual(names(full.headers));
      for (const name of ['content-type', 'content-length', 'ratelimit-limit', 'ratelimit-reset']) {
        expect(hot.headers[name]).toBe(full.headers[name]);
      }
      expect(hot.headers['request-id']).toMatch(/^req_[0-9a-f]{32}$/);
      const entry = (id: unknown) => {
        const row = deps.store.requests.get(String(id));
        if (!row) throw new Error(`no entry ${String(id)}`);
        const { id: _id, seq: _seq, duration_cms: _d, path: p, ...rest } = row;
        return { ...rest, path: p.replace(/\/$/, '') };
      };
      expect(entry(hot.headers['request-id'])).toEqual(entry(full.headers['request-id']));
    }
  });

  it('count: no setHeader, one writeHead, no token verification for a repeated token', async () => {
    const { headers, customerId, deps } = await start();
    const tokens = tokenCache(deps.store);
    await get('/v3/sandbox/clock', headers); // the first request verifies the token
    const verified = tokens.verifications;
    for (const path of ['/v3/sandbox/clock', `/v3/customers/${customerId}`]) {
      const set = await counting('setHeader', () => get(path, headers));
      expect(set.result.status).toBe(200);
      expect(set.calls).toBe(0);
      const heads = await counting('writeHead', () => get(path, headers));
      expect(heads.calls).toBe(1);
    }
    expect(tokens.verifications).toBe(verified);
  });

  it('after 10,000 reads: the request log keeps its bound, nothing waits, every access line printed', async () => {
    // The rate limit stays on, high enough that 10,000 reads on a fast machine stay under it.
    const { headers, customerId, deps, lines } = await start({ requestLogSize: 100, rateLimit: 1_000_000 });
    const before = lines.length;
    const paths = ['/v3/sandbox/clock', `/v3/customers/${customerId}`];
    let sent = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (sent < 10_000) {
          const path = paths[sent % 2] as string;
          sent += 1;
          const res = await get(path, headers);
          expect(res.status).toBe(200);
        }
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    // One partner: its ring holds the last 100 and nothing else is kept (size applies what waits).
    const partnerId = [...deps.store.partners.values()][0]?.id ?? '';
    expect(deps.store.requests.ring(partnerId)?.count).toBe(100);
    expect(deps.store.requests.size).toBe(100);
    expect(lines.length - before).toBe(10_000);
    expect(lines.at(-1)).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z {2}GET {4}\/v3\/\S+ {2}200 {2}[\d.]+ ms$/);
  });

  it('leave refusals to the full app: 429 with its headers', async () => {
    // One request a second (the setup's token and customer requests took some): of 20 sent at
    // once, at most a few fit in the bucket.
    const { headers } = await start({ rateLimit: 1 });
    const answers = await Promise.all(Array.from({ length: 20 }, () => get('/v3/sandbox/clock', headers)));
    const refused = answers.find((a) => a.status === 429);
    expect(answers.every((a) => a.status === 200 || a.status === 429)).toBe(true);
    expect(refused?.headers['retry-after']).toBeDefined();
    expect(refused?.headers['ratelimit-limit']).toBe('1');
    expect(refused?.headers['ratelimit-remaining']).toBe('0');
    expect(JSON.parse(refused?.text ?? '{}')).toMatchObject({ code: 'rate_limited' });
  });

  it('leave refusals to the full app: 401 for an unknown token and for a cached one past its exp', async () => {
    const { headers, deps } = await start();
    expect((await get('/v3/sandbox/clock', headers)).status).toBe(200);
    const unknown = await get('/v3/sandbox/clock', { authorization: 'Bearer svc_at_not.a.token' });
    expect(unknown.status).toBe(401);
    const partnerId = [...deps.store.partners.values()][0]?.id ?? '';
    deps.engine.advance(partnerId, deps.engine.clock(partnerId).nowMs() + 2 * 3600_000);
    const expired = await get('/v3/sandbox/clock', headers);
    expect(expired.status).toBe(401);
    expect(JSON.parse(expired.text)).toMatchObject({ code: 'token_expired' });
  });

  it('leave a partner with API fault rules to the full app, where the rules act', async () => {
    const { url, headers, customerId } = await start();
    const path = `/v3/customers/${customerId}`;
    expect((await get(path, headers)).status).toBe(200);
    const rule = await fetch(`${url}/v3/sandbox/faults`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        match: { method: 'GET', path: '/customers/{customer_id}' },
        action: { status: 503 },
        times: 1,
      }),
    });
    expect(rule.status).toBe(201);
    const faulted = await get(path, headers);
    expect(faulted.status).toBe(503);
    expect(JSON.parse(faulted.text)).toMatchObject({ code: 'service_unavailable' });
    expect((await get(path, headers)).status).toBe(200);
  });
  it('answer the clock as it is now: the cached text follows an advance, a resume and a freeze', async () => {
    const { headers, deps } = await start();
    const partnerId = [...deps.store.partners.values()][0]?.id ?? '';
    const clock = async () =>
      JSON.parse((await get('/v3/sandbox/clock', headers)).text) as { now: string; frozen: boolean };
    const first = await clock();
    expect(first.frozen).toBe(true);
    expect(await clock()).toEqual(first);
    deps.engine.advance(partnerId, Date.parse(first.now) + 60_000);
    const advanced = await clock();
    expect(advanced).toEqual({ now: new Date(Date.parse(first.now) + 60_000).toISOString(), frozen: true });
    expect(advanced).toEqual(JSON.parse((await get('/v3/sandbox/clock/', headers)).text));
    deps.engine.resume(partnerId);
    const running = await clock();
    expect(running.frozen).toBe(false);
    expect(Date.parse(running.now)).toBeGreaterThanOrEqual(Date.parse(advanced.now));
    deps.engine.freeze(partnerId);
    const frozen = await clock();
    expect(frozen).toEqual({ now: deps.engine.clockView(partnerId).now, frozen: true });
  });
});
