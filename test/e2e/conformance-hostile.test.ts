// The kit judges targets it cannot trust: whatever a target answers (deep JSON, NUL bytes, invalid
// UTF-8, not JSON, a huge body, no answer at all) and whatever reaches its webhook listener, the
// run ends in bounded time with a report — departures, never a crash.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ALL_CHECKS } from '../../src/conformance/checks/index.js';
import { runChecks, selectChecks } from '../../src/conformance/runner.js';
import { startListener } from '../../src/conformance/webhooks/listener.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

type Hostile = (response: import('node:http').ServerResponse) => void;

const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
const HOSTILE: Record<string, Hostile> = {
  'deeply nested JSON': (r) => r.writeHead(201, { 'content-type': 'application/json' }).end(`{"id":${deep}}`),
  'NUL bytes and control characters': (r) =>
    r.writeHead(201, { 'content-type': 'application/json' }).end('{"id":"cust_\\u0000","status":"\u0001"}'),
  'invalid UTF-8': (r) =>
    r
      .writeHead(201, { 'content-type': 'application/json' })
      .end(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])),
  'a body that is not JSON': (r) =>
    r.writeHead(200, { 'content-type': 'text/html' }).end('<html>oops</html>'),
  'a 9 MiB body': (r) =>
    r.writeHead(200, { 'content-type': 'application/json' }).end(`"${'x'.repeat(9 * 1024 * 1024)}"`),
  'no answer at all': () => {},
  'a wrong status everywhere': (r) => r.writeHead(418).end(),
};

async function hostileTarget(hostile: Hostile): Promise<string> {
  const server = createServer((request, response) => {
    request.resume();
    if (request.url === '/v3/auth/token') {
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"access_token":"svc_at_a.b.c","expires_in":3600}');
      return;
    }
    hostile(response);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v3`;
}

describe('the conformance kit against a hostile target', () => {
  const checks = selectChecks(ALL_CHECKS, [
    'customers.create.*',
    'lists.customers.envelope',
    'errors.problem.*',
    'auth.bearer.*',
  ]);

  for (const [name, hostile] of Object.entries(HOSTILE)) {
    it(`reports departures for ${name}, in bounded time`, async () => {
      const target = await hostileTarget(hostile);
      const outcome = await runChecks(checks, {
        target,
        clientId: 'cid',
        clientSecret: 'svc_cs_test_x',
        timeoutMs: 500,
        requestTimeoutMs: 1000,
      });
      expect(outcome.mode).toBe('black-box');
      expect(outcome.results).toHaveLength(checks.length);
      const failed = outcome.results.filter((r) => r.status === 'fail');
      expect(failed.length).toBeGreaterThan(0);
      for (const result of failed) expect(result.reason, result.id).toBeTruthy();
      expect(outcome.results.some((r) => r.status === 'pass' && r.id.startsWith('customers.'))).toBe(false);
    });
  }

  it('keeps its webhook listener up whatever is posted to it', async () => {
    const got: string[] = [];
    const listener = await startListener({ host: '127.0.0.1', port: 0 });
    try {
      const route = listener.route((delivery) => got.push(delivery.raw));
      const post = (body: string | Buffer, path = new URL(route.url).pathname) =>
        fetch(new URL(path, listener.publicUrl), { method: 'POST', body });
      expect((await post('{"type":"x","timestamp":"t","data":{}}')).status).toBe(200);
      expect((await post(Buffer.from([0xff, 0x00, 0xfe]))).status).toBe(200);
      expect((await post(deep)).status).toBe(200);
      expect((await post('x'.repeat(2 * 1024 * 1024))).status).toBe(413);
      expect((await post('{}', '/hooks/unknown')).status).toBe(404);
      expect((await post('{"after":"all that"}')).status).toBe(200);
      expect(got).toHaveLength(4);
    } finally {
      await listener.close();
    }
    // Listening on every interface, the URL given to the target names loopback.
    const everywhere = await startListener({ host: '0.0.0.0', port: 0 });
    expect(everywhere.publicUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await everywhere.close();
    const tunnelled = await startListener({ host: '127.0.0.1', port: 0 }, 'https://hooks.example.net/');
    expect(tunnelled.route(() => {}).url).toMatch(/^https:\/\/hooks\.example\.net\/hooks\/[0-9a-f]{24}$/);
    await tunnelled.close();
  });
});
