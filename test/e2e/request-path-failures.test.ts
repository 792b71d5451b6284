import { Pool } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import type { RunningServer } from '../../src/server.js';
import { basicOf, call, cpfOf, session } from '../support/operation-data.js';
import { startQuietServer } from '../support/test-server.js';

// Nothing a request does ends the process (issue 40): an exception anywhere on the request path,
// a row its view cannot read included, is a 500 problem carrying the request id, on every entry
// (Node's entry, app.fetch behind Node's server, app.fetch in-process), and the next request is
// served. Before the one request path, the second read of such a row went through the hot read
// path, outside any handler, and Node exited.

let server: RunningServer | undefined;
let pool: Pool | undefined;

afterEach(async () => {
  await pool?.close();
  await server?.close();
  server = undefined;
  pool = undefined;
});

async function brokenCustomer() {
  const errors: unknown[] = [];
  server = await startQuietServer({
    log: { info: () => {}, error: (_message, error) => errors.push(error) },
  });
  pool = new Pool(server.url, { connections: 1 });
  const s = await session(`${server.url}/v3`, basicOf(DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET));
  const customer = await call<{ id: string }>(s, 'POST', '/customers', {
    cpf: cpfOf(424_242),
    name: 'Broken',
  });
  const row = server.deps.store.customers.get(customer.id);
  if (!row) throw new Error('no row');
  // A row its view cannot read (what a hostile import could once plant).
  server.deps.store.customers.replace({ ...row, kyc: [null as never] });
  return { s, id: customer.id, errors, url: server.url };
}

describe('an exception on the request path', () => {
  it('is a 500 problem with the request id on every entry, and the process serves the next request', async () => {
    const { s, id, errors } = await brokenCustomer();
    const running = server as RunningServer;
    const paths = [
      `/v3/customers/${id}`,
      `/v3/customers/${id}`,
      `/v3/customers/${id.slice(0, -1)}%${id.charCodeAt(id.length - 1).toString(16)}`,
    ];
    for (const path of paths) {
      const res = await pool?.request({ method: 'GET', path, headers: s.headers() });
      if (!res) throw new Error('no pool');
      const body = (await res.body.json()) as { code: string; instance: string; status: number };
      const requestId = res.headers['request-id'] as string;
      expect(res.statusCode, path).toBe(500);
      expect(res.headers['content-type']).toBe('application/problem+json');
      expect(body).toMatchObject({ code: 'internal_error', status: 500 });
      expect(body.instance).toBe(`/v3/customers/${id}#${requestId}`);
    }
    const local = await running.app.request(`/v3/customers/${id}`, { headers: s.headers() });
    expect(local.status).toBe(500);
    expect(((await local.json()) as { code: string }).code).toBe('internal_error');
    // Each failure was logged, none ended the process: the sandbox still answers.
    expect(errors).toHaveLength(4);
    const health = await pool?.request({ method: 'GET', path: '/healthz' });
    expect(health?.statusCode).toBe(200);
    await health?.body.dump();
    const clock = await call<{ frozen: boolean }>(s, 'GET', '/sandbox/clock');
    expect(clock.frozen).toBe(true);
  });

  it('in a write is a 500 problem, logged, and the next write is served', async () => {
    const { s, id, errors } = await brokenCustomer();
    const res = await fetch(`${server?.url}/v3/customers/${id}`, {
      method: 'PATCH',
      headers: { ...s.headers(), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Still Broken' }),
    });
    expect(res.status).toBe(500);
    expect(res.headers.get('request-id')).toMatch(/^req_/);
    expect(errors.length).toBeGreaterThan(0);
    const next = await call<{ id: string }>(s, 'POST', '/customers', { cpf: cpfOf(434_343), name: 'Next' });
    expect(next.id).toMatch(/^cust_/);
  });
});
