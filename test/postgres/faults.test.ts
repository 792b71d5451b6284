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

  it('a rule added through one instance acts on a request through the other, and is kept in PostgreSQL', async () => {
    const throughA = await newPartner(
      httpSandbox(() => a.url),
      () => a.url,
      'faults-a',
    );
    const token = await throughA.token();
    const created = await throughA.json<Rule>('POST', '/v3/sandbox/faults', {
      token,
      body: { match: { method: 'GET', path: '/customers' }, action: { status: 503 }, times: 2 },
    });
    expect(created.status).toBe(201);
    const rows = await query<{ id: string }>(databaseUrl, 'SELECT id FROM fault_rules');
    expect(rows.map((r) => r.id)).toEqual([created.body.id]);

    const throughB = (path: string, method = 'GET') =>
      fetch(`${b.url}${path}`, { method, headers: { authorization: `Bearer ${token}` } });
    const faulted = await throughB('/v3/customers');
    expect(faulted.status).toBe(503);
    expect(((await faulted.json()) as { code: string }).code).toBe('service_unavailable');
    const rules = (await (await throughB('/v3/sandbox/faults')).json()) as { data: Rule[] };
    expect(rules.data).toEqual([expect.objectContaining({ id: created.body.id, times_left: 1 })]);

    // Cleared through B; A answers normally again.
    expect((await throughB('/v3/sandbox/faults', 'DELETE')).status).toBe(200);
    expect((await throughA.json('GET', '/v3/customers', { token })).status).toBe(200);
    expect(await query(databaseUrl, 'SELECT id FROM fault_rules')).toEqual([]);
  });
});
