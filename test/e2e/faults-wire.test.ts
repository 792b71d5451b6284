import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import type { RunningServer } from '../../src/server.js';
import { startQuietServer } from '../support/test-server.js';

// Faults that act on the connection (reset, timeout, truncation, delay) need a real socket: a
// server on 127.0.0.1, port 0, and Node's own HTTP client, which reports exactly what arrived.
// Durations are the smallest that a client can tell apart; nothing here sleeps.

let server: RunningServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(): Promise<{ url: string; auth: string }> {
  server = await startQuietServer();
  const basic = Buffer.from(`${DEFAULT_CLIENT_ID}:${DEFAULT_CLIENT_SECRET}`).toString('base64');
  const res = await fetch(`${server.url}/v3/auth/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}` },
  });
  const { access_token } = (await res.json()) as { access_token: string };
  return { url: server.url, auth: `Bearer ${access_token}` };
}

interface Exchange {
  status: number | null;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The client's error: the connection was reset or closed before a whole answer arrived. */
  error: string | null;
  ms: number;
}

/** One request over a fresh connection; resolves with whatever arrived, never rejects. */
function exchange(
  url: string,
  method: string,
  path: string,
  options: { auth: string; body?: unknown; headers?: Record<string, string>; giveUpAfterMs?: number },
): Promise<Exchange> {
  const started = performance.now();
  return new Promise((resolve) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const req = httpRequest(`${url}${path}`, {
      method,
      agent: false,
      headers: {
        authorization: options.auth,
        ...(payload !== undefined && { 'content-type': 'application/json' }),
        ...options.headers,
      },
    });
    let status: number | null = null;
    let headers: Exchange['headers'] = {};
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (error: string | null) => {
      if (settled) return;
      settled = true;
      resolve({
        status,
        headers,
        body: Buffer.concat(chunks).toString('utf8'),
        error,
        ms: performance.now() - started,
      });
    };
    if (options.giveUpAfterMs !== undefined)
      req.setTimeout(options.giveUpAfterMs, () => req.destroy(new Error('client gave up')));
    req.on('response', (res) => {
      status = res.statusCode ?? null;
      headers = res.headers;
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => finish(null));
      res.on('aborted', () => finish('aborted'));
      res.on('error', (error) => finish(error.message));
    });
    req.on('error', (error) => finish((error as NodeJS.ErrnoException).code ?? error.message));
    req.end(payload);
  });
}

async function addRule(url: string, auth: string, body: Record<string, unknown>): Promise<{ id: string }> {
  const res = await fetch(`${url}/v3/sandbox/faults`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string };
}

interface Logged {
  method: string;
  path: string;
  status: number;
  response_body: unknown;
  fault: { rule_id: string; action: Record<string, unknown> } | null;
}

async function logged(url: string, auth: string): Promise<Logged[]> {
  const res = await fetch(`${url}/v3/sandbox/requests?path=/v3/customers`, {
    headers: { authorization: auth },
  });
  return ((await res.json()) as { data: Logged[] }).data;
}

const customer = {
  cpf: '52998224725',
  name: 'Maria da Silva',
  email: 'maria@example.com',
  phone: '+5511987654321',
};

describe('faults on the wire', () => {
  it('reset: the connection is reset without an answer, the operation does not run, the inspector says so', async () => {
    const { url, auth } = await start();
    const rule = await addRule(url, auth, {
      match: { path: '/customers' },
      action: { reset: true },
      times: 1,
    });
    const reset = await exchange(url, 'POST', '/v3/customers', { auth, body: customer });
    expect(reset.status).toBeNull();
    expect(reset.error).toBe('ECONNRESET');
    const list = await exchange(url, 'GET', '/v3/customers', { auth });
    expect(JSON.parse(list.body)).toMatchObject({ data: [] });
    const [, entry] = await logged(url, auth);
    expect(entry).toMatchObject({
      method: 'POST',
      status: 0,
      response_body: null,
      fault: { rule_id: rule.id, action: { reset: true } },
    });
  });

  it('reset after processing: the customer is created, and the retry with the same key replays it', async () => {
    const { url, auth } = await start();
    await addRule(url, auth, {
      match: { path: '/customers' },
      action: { reset: true, after_processing: true },
      times: 1,
    });
    const headers = { 'idempotency-key': 'reset-after-1' };
    const reset = await exchange(url, 'POST', '/v3/customers', { auth, body: customer, headers });
    expect(reset.error).toBe('ECONNRESET');
    const retry = await exchange(url, 'POST', '/v3/customers', { auth, body: customer, headers });
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    const list = JSON.parse((await exchange(url, 'GET', '/v3/customers', { auth })).body) as {
      data: { id: string }[];
    };
    expect(list.data.map((c) => c.id)).toEqual([JSON.parse(retry.body).id]);
  });

  it('timeout: never answers, and closes the connection itself once the bound has passed', async () => {
    const { url, auth } = await start();
    const rule = await addRule(url, auth, {
      match: { path: '/customers' },
      action: { timeout: '80ms' },
      times: 1,
    });
    const held = await exchange(url, 'GET', '/v3/customers', { auth });
    expect(held.status).toBeNull();
    expect(held.error).toBe('ECONNRESET');
    expect(held.ms).toBeGreaterThanOrEqual(75);
    const [entry] = await logged(url, auth);
    expect(entry).toMatchObject({ status: 0, fault: { rule_id: rule.id, action: { timeout: '80ms' } } });
  });

  it('timeout: when the client gives up first, the sandbox lets go of the request at once', async () => {
    const { url, auth } = await start();
    await addRule(url, auth, { match: { path: '/customers' }, action: { timeout: '2m' }, times: 1 });
    const gaveUp = await exchange(url, 'GET', '/v3/customers', { auth, giveUpAfterMs: 40 });
    expect(gaveUp.error).toBe('client gave up');
    // The held request ends when the client's socket closes: its log entry appears (a request
    // still held would never be logged), and the server then closes without waiting 2 minutes.
    // (Waits for that event, however busy the machine: the test's limit reports a request held.)
    let entries: Logged[] = [];
    while (entries.length === 0) {
      entries = await logged(url, auth);
      if (entries.length === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    expect(entries[0]).toMatchObject({ status: 0, fault: { action: { timeout: '2m' } } });
  });

  it('truncate: the status, headers and full Content-Length go out with half the body, then the connection closes', async () => {
    const { url, auth } = await start();
    const created = await exchange(url, 'POST', '/v3/customers', { auth, body: customer });
    const id = (JSON.parse(created.body) as { id: string }).id;
    await addRule(url, auth, {
      match: { path: '/customers/{customer_id}' },
      action: { truncate: true },
      times: 1,
    });
    const cut = await exchange(url, 'GET', `/v3/customers/${id}`, { auth });
    const whole = await exchange(url, 'GET', `/v3/customers/${id}`, { auth });
    expect(cut.status).toBe(200);
    expect(cut.error).toBe('aborted');
    expect(cut.headers['content-length']).toBe(String(Buffer.byteLength(whole.body)));
    expect(cut.headers['request-id']).toMatch(/^req_/);
    expect(Buffer.byteLength(cut.body)).toBe(Math.floor(Buffer.byteLength(whole.body) / 2));
    expect(whole.body.startsWith(cut.body)).toBe(true);
    expect(() => JSON.parse(cut.body)).toThrow();
  });

  it('delay: the answer arrives whole, no sooner than the delay', async () => {
    const { url, auth } = await start();
    await addRule(url, auth, { match: { path: '/customers' }, action: { delay: '60ms' }, times: 1 });
    const delayed = await exchange(url, 'GET', '/v3/customers', { auth });
    expect(delayed.status).toBe(200);
    expect(delayed.error).toBeNull();
    expect(delayed.ms).toBeGreaterThanOrEqual(55);
    const [entry] = await logged(url, auth);
    expect(entry).toMatchObject({ status: 200, fault: { action: { delay: '60ms' } } });
  });

  it('status after processing over a real socket: 504, and the write happened', async () => {
    const { url, auth } = await start();
    await addRule(url, auth, {
      match: { method: 'POST', path: '/customers' },
      action: { status: 504, after_processing: true },
      times: 1,
    });
    const lost = await exchange(url, 'POST', '/v3/customers', { auth, body: customer });
    expect(lost.status).toBe(504);
    expect(lost.headers.location).toBeUndefined();
    expect(JSON.parse(lost.body)).toMatchObject({ code: 'gateway_timeout', status: 504 });
    const list = JSON.parse((await exchange(url, 'GET', '/v3/customers', { auth })).body) as {
      data: unknown[];
    };
    expect(list.data).toHaveLength(1);
  });
});
