import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labelOf, MAX_ANSWER_BYTES, partnerApi, retryAfterMs, send, Unreachable } from './http.js';
import { redact } from './redact.js';

let base = '';
let rateLimited = 0;
const server = createServer((request, response) => {
  if (request.url === '/limited') {
    rateLimited += 1;
    if (rateLimited < 3) return void response.writeHead(429, { 'retry-after': '0' }).end();
    return void response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  }
  if (request.url === '/huge') {
    response.writeHead(200, { 'content-type': 'application/json' });
    const chunk = 'x'.repeat(1024 * 1024);
    for (let k = 0; k <= MAX_ANSWER_BYTES / chunk.length; k++) response.write(chunk);
    return void response.end();
  }
  if (request.url === '/auth/token')
    return void response
      .writeHead(200, { 'content-type': 'application/json' })
      .end('{"access_token":"svc_at_abc.def.ghi"}');
  response
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify({ secret: 'whsec_abc', note: 'token svc_at_xyz inside' }));
});
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("the kit's HTTP client", () => {
  it('labels requests by their template, ids replaced', () => {
    expect(labelOf('GET', '/customers/cust_0123456789abcdef0123456789abcdef/credit-offers?limit=2')).toBe(
      'GET /customers/{id}/credit-offers',
    );
    expect(labelOf('DELETE', '/auth/credentials/any-client-id')).toBe('DELETE /auth/credentials/{id}');
    expect(labelOf('POST', '/sandbox/customers/cust_0123456789abcdef0123456789abcdef/kyc/approve')).toBe(
      'POST /sandbox/customers/{id}/kyc/approve',
    );
  });

  it('reads Retry-After in seconds or as a date, 1 s without one, at most a minute', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(null)).toBe(1000);
    expect(retryAfterMs('3600')).toBe(60_000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 5_000)).toBe(5_000);
    expect(retryAfterMs('soon')).toBe(1000);
  });

  it('waits out 429 and answers what came after', async () => {
    const waits: number[] = [];
    const answer = await send(
      { baseUrl: base, requestTimeoutMs: 5000, sleep: async (ms) => void waits.push(ms) },
      'GET',
      '/limited',
    );
    expect(answer.status).toBe(200);
    expect(waits).toEqual([0, 0]);
  });

  it('stops reading an answer over its bound, without ending the process', async () => {
    await expect(send({ baseUrl: base, requestTimeoutMs: 10_000 }, 'GET', '/huge')).rejects.toThrow(
      Unreachable,
    );
  });

  it('records requests without their credentials', async () => {
    const api = partnerApi({ baseUrl: base, requestTimeoutMs: 5000 }, 'cid', 'svc_cs_test_secret');
    const answer = await api.call('POST', '/things', {
      body: { client_secret: 'svc_cs_test_secret', url: 'https://x/whsec_abc' },
    });
    expect(JSON.stringify(answer.request)).not.toMatch(/svc_at_abc|svc_cs_test_secret|whsec_abc/);
    expect(answer.request.headers?.authorization).toBe('Bearer [redacted]');
  });

  it('redacts deep and wide values without a recursion limit', () => {
    let deep: unknown = { secret: 'whsec_x' };
    for (let k = 0; k < 100_000; k++) deep = [deep];
    expect(JSON.stringify(redact({ a: 'svc_cs_live_zzz', nul: 'a\u0000b' }))).toBe(
      '{"a":"[redacted]","nul":"a\\u0000b"}',
    );
    let node = redact(deep);
    for (let k = 0; k < 100_000; k++) node = (node as unknown[])[0];
    expect(node).toEqual({ secret: '[redacted]' });
  });
});
