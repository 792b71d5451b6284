import { describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import type { ApiError } from '../../src/domain/errors.js';
import { type RunningServer, startServer } from '../../src/server.js';
import { customerRow } from '../../src/store/journal/test-helpers.js';
import { flushFor, WriteFailedError } from '../../src/store/persistence.js';
import { createCustomer } from '../support/customers.js';
import { freshDatabase, query } from './support/database.js';
import { httpSandbox } from './support/http-sandbox.js';

const errors: string[] = [];
const log = { info: () => {}, error: (message: string) => void errors.push(message) };

function start(databaseUrl: string): Promise<RunningServer> {
  return startServer({
    port: 0,
    host: '127.0.0.1',
    databaseUrl,
    clockMode: 'frozen',
    webhookHttpHosts: [],
    rateLimit: 0,
    credential: { clientId: DEFAULT_CLIENT_ID, clientSecret: DEFAULT_CLIENT_SECRET },
    log,
  });
}

describe('shared mode: writes are fenced by the partner lease', () => {
  it('refuses the write of an instance whose lease was taken, and drops the partner from its memory', async () => {
    const url = await freshDatabase('fencing');
    const server = await start(url);
    try {
      const api = httpSandbox(() => server.url);
      await createCustomer(api, { cpf: '52998224725' });
      const cluster = server.shared?.cluster;
      expect(cluster?.owns('ptn_default')).toBe(true);
      // Another instance takes the partner over (as after a pause longer than the lease).
      await query(
        url,
        "UPDATE partner_leases SET owner = 'ins_other', owner_url = 'http://127.0.0.1:9' WHERE partner_id = 'ptn_default'",
      );
      const res = await api.json<{ code: string }>('POST', '/v3/customers', {
        body: { cpf: '11144477735', name: 'Too late', email: 'late@example.com', phone: '+5511987654321' },
      });
      // POST /customers is in the spec's status table, whose only 5xx is 500 (elsewhere 503).
      expect(res.status).toBe(500);
      expect(res.body.code).toBe('instance_unavailable');
      expect(res.headers.get('retry-after')).toBe('1');
      expect(cluster?.owns('ptn_default')).toBe(false);
      expect(server.deps.store.partners.get('ptn_default')).toBeUndefined();
      // Nothing of the refused write reached the database.
      const rows = await query<{ n: string }>(url, 'SELECT count(*) AS n FROM customers');
      expect(Number(rows[0]?.n)).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('writes the other partners of a group commit when one lease was taken: only that partner is refused', async () => {
    const url = await freshDatabase('fencing_group');
    const server = await start(url);
    try {
      const api = httpSandbox(() => server.url);
      const other = await api.json<{ id: string; client_id: string; client_secret: string }>(
        'POST',
        '/v3/sandbox/partners',
        { body: { name: 'Beside' } },
      );
      expect(other.status).toBe(201);
      // Its first request brings the new partner here (partners are handed off once created).
      const beside = httpSandbox(() => server.url, other.body.client_id, other.body.client_secret);
      expect((await beside.json('GET', '/v3/customers')).status).toBe(200);
      const cluster = server.shared?.cluster;
      expect([cluster?.owns('ptn_default'), cluster?.owns(other.body.id)]).toEqual([true, true]);
      await query(
        url,
        "UPDATE partner_leases SET owner = 'ins_other', owner_url = 'http://127.0.0.1:9' WHERE partner_id = 'ptn_default'",
      );
      // Two partners' changes in one flush (as two requests in one group commit).
      const { store, persistence } = server.deps;
      store.customers.insert(customerRow(store, 'cust_refused', 'ptn_default', 'Refused'));
      store.customers.insert(customerRow(store, 'cust_written', other.body.id, 'Written'));
      const refusal = await persistence.flush().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refusal).toBeInstanceOf(WriteFailedError);
      const failed = refusal as WriteFailedError;
      expect(failed.partnerIds).toEqual(['ptn_default']);
      expect((failed.answers.get('ptn_default') as ApiError).code).toBe('instance_unavailable');
      // The other partner's request is answered as written, and it was: before, every request of
      // the flush was told that nothing was written while the other partner's rows went in later.
      await expect(flushFor(persistence, other.body.id)).resolves.toBeUndefined();
      const rows = await query<{ id: string }>(url, 'SELECT id FROM customers ORDER BY id');
      expect(rows.map((row) => row.id)).toEqual(['cust_written']);
      expect(cluster?.owns('ptn_default')).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('takes a partner over once its lease expires, with every acknowledged write', async () => {
    const url = await freshDatabase('takeover');
    const first = await start(url);
    const api = httpSandbox(() => first.url);
    const customer = await createCustomer(api, { cpf: '52998224725' });
    // A dead owner: its lease lapses without being given back.
    await query(
      url,
      "UPDATE partner_leases SET owner = 'ins_dead', expires_at = now() - interval '1 second'",
    );
    await first.close();
    const second = await start(url);
    try {
      const again = httpSandbox(() => second.url);
      const res = await again.json<{ id: string }>('GET', `/v3/customers/${customer.id}`);
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(customer.id);
      const lease = await query<{ owner: string }>(
        url,
        "SELECT owner FROM partner_leases WHERE partner_id = 'ptn_default'",
      );
      expect(lease[0]?.owner).toBe(second.shared?.cluster.instanceId);
    } finally {
      await second.close();
    }
  });
});
