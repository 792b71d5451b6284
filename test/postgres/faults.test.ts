import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, query } from './support/database.js';
import { type Instance, startInstance, stopInstance } from './support/fleet.js';
import { httpSandbox } from './support/http-sandbox.js';
import { newPartner } from './support/journey.js';

interface Rule {
  id: string;
  times_left: number | null;
}

describe('API-side faults in shared mode', () => {
  let databaseUrl: string;
  let a: Instance;
  let b: Instance;

  beforeAll(async () => {
    databaseUrl = await freshDatabase('faults');
    [a, b] = await Promise.all([startInstance(databaseUrl), startInstance(databaseUrl)]);
  });

  afterAll(async () => {
    await Promise.all([a, b].filter(Boolean).map(stopInstance));
  });

  /**
   * A new partner and its token, and the instance that owns it (holds it in memory) and the one
   * that does not (a call through it is forwarded to the owner).
   */
  async function partnerOnFleet(name: string) {
    const api = await newPartner(
      httpSandbox(() => a.url),
      () => a.url,
      name,
    );
    const token = await api.token();
    // The first authenticated call claims the partner for the instance it reaches.
    expect(
      (await fetch(`${a.url}/v3/sandbox/clock`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200);
    const payload = token.replace(/^svc_at_/, '').split('.')[1] ?? '';
    const { partner } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { partner: string };
    const lease = await query<{ owner_url: string }>(
      databaseUrl,
      'SELECT owner_url FROM partner_leases WHERE partner_id = $1',
      [partner],
    );
    const owner = lease[0]?.owner_url === a.url ? a : b;
    expect(lease.map((l) => l.owner_url)).toEqual([owner.url]);
    const forwarder = owner === a ? b : a;
    const call = (via: Instance, method: string, path: string, body?: unknown) =>
      fetch(`${via.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
    return { token, owner, forwarder, call };
  }

  it('a rule added through one instance acts on requests through either, and is kept in PostgreSQL', async () => {
    const { owner, forwarder, call } = await partnerOnFleet('faults-rules');
    // Added through the instance that does not hold the partner (forwarded to its owner).
    const created = await call(forwarder, 'POST', '/v3/sandbox/faults', {
      match: { method: 'GET', path: '/customers' },
      action: { status: 503 },
      times: 2,
    });
    expect(created.status).toBe(201);
    const rule = (await created.json()) as Rule;
    const rows = await query<{ id: string }>(databaseUrl, 'SELECT id FROM fault_rules');
    expect(rows.map((r) => r.id)).toEqual([rule.id]);

    const direct = await call(owner, 'GET', '/v3/customers');
    expect(direct.status).toBe(503);
    expect(((await direct.json()) as { code: string }).code).toBe('service_unavailable');
    const viaForwarder = await call(forwarder, 'GET', '/v3/customers');
    expect(viaForwarder.status).toBe(503);
    const left = (await (await call(owner, 'GET', '/v3/sandbox/faults')).json()) as { data: Rule[] };
    expect(left.data).toEqual([]);

    // A rule cleared through one instance is gone for both.
    await call(owner, 'POST', '/v3/sandbox/faults', {
      match: { path: '/customers' },
      action: { status: 500 },
    });
    expect((await call(forwarder, 'DELETE', '/v3/sandbox/faults')).status).toBe(200);
    expect((await call(owner, 'GET', '/v3/customers')).status).toBe(200);
    expect(await query(databaseUrl, 'SELECT id FROM fault_rules')).toEqual([]);
  });

  it('acts out wire faults on the connection of the instance the client called, not on the forwarding one', async () => {
    const { token, forwarder, call } = await partnerOnFleet('faults-wire');
    const add = async (action: Record<string, unknown>) =>
      expect(
        (
          await call(forwarder, 'POST', '/v3/sandbox/faults', {
            match: { method: 'GET', path: '/customers' },
            action,
            times: 1,
          })
        ).status,
      ).toBe(201);
    const url = `${forwarder.url}/v3/customers`;
    // Reset: the client sees its own connection reset (not a 503 from the forwarding instance).
    await add({ reset: true });
    expect(await rawGet(url, token)).toMatchObject({ status: null, error: 'ECONNRESET' });
    // Truncation: the real status and length, half the body, then the connection closes.
    await add({ truncate: true });
    const cut = await rawGet(url, token);
    expect(cut.status).toBe(200);
    expect(cut.error).toBe('aborted');
    expect(Number(cut.headers['content-length'])).toBe(Buffer.byteLength(cut.body) * 2);
    // Timeout: held until the bound, then closed.
    await add({ timeout: '100ms' });
    expect(await rawGet(url, token)).toMatchObject({ status: null, error: 'ECONNRESET' });
    expect((await call(forwarder, 'GET', '/v3/customers')).status).toBe(200);
  });
});

/** A GET over a fresh connection with Node's client, reporting exactly what arrived. */
function rawGet(
  url: string,
  token: string,
): Promise<{ status: number | null; headers: Record<string, unknown>; body: string; error: string | null }> {
  return new Promise((resolve) => {
    const req = httpRequest(url, { agent: false, headers: { authorization: `Bearer ${token}` } });
    let status: number | null = null;
    let headers: Record<string, unknown> = {};
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (error: string | null) => {
      if (settled) return;
      settled = true;
      resolve({ status, headers, body: Buffer.concat(chunks).toString('utf8'), error });
    };
    req.on('response', (res) => {
      status = res.statusCode ?? null;
      headers = res.headers;
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => finish(null));
      res.on('aborted', () => finish('aborted'));
      res.on('error', (error) => finish(error.message));
    });
    req.on('error', (error) => finish((error as NodeJS.ErrnoException).code ?? error.message));
    req.end();
  });
}
