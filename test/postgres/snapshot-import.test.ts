import { afterAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_CLIENT_ID,
  DEFAULT_CLIENT_SECRET,
  DEFAULT_PARTNER_ID,
} from '../../src/domain/default-partner.js';
import { generateCpf } from '../../src/finance/cpf.js';
import { type RunningServer, startServer } from '../../src/server.js';
import { partnerClient } from '../support/partner-client.js';
import { edited, exportedWorld, firstRow, importRaw, type Send } from '../support/snapshot-imports.js';
import { freshDatabase, query } from './support/database.js';

// Issue 40 in shared mode: imports checked and all or nothing, counters of imported rows this
// sandbox's own, and rows an older version let into the database repaired as their partner loads.
const running: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(running.map((server) => server.close().catch(() => {})));
});

async function start(databaseUrl: string, errors: string[] = [], maxSnapshotBytesTotal?: number) {
  const server = await startServer({
    maxSnapshotBytesTotal,
    port: 0,
    host: '127.0.0.1',
    databaseUrl,
    publicUrl: 'http://sandbox.test',
    clockMode: 'frozen',
    webhookHttpHosts: [],
    rateLimit: 0,
    // An internal fleet: the fixture's webhook endpoint is on loopback.
    safety: { webhookPublicOnly: false, partnerSignup: true, quotas: undefined },
    credential: { clientId: DEFAULT_CLIENT_ID, clientSecret: DEFAULT_CLIENT_SECRET },
    log: { info: () => {}, error: (message) => errors.push(message) },
  });
  running.push(server);
  const send: Send = (path, init) => fetch(`${server.url}${path}`, init);
  return { server, send, api: partnerClient(send) };
}

async function stop(server: RunningServer): Promise<void> {
  running.splice(running.indexOf(server), 1);
  await server.close();
}

describe('snapshot imports in shared mode (--database)', () => {
  it('refuses unchecked rows, renumbers imported ones, and keeps nothing of an import the database refuses', async () => {
    const url = await freshDatabase('import_checks');
    const { server, send, api } = await start(url);
    const token = await api.token();
    const document = await exportedWorld();
    const nullKyc = edited(document, (doc) => {
      firstRow(doc, 'customers').kyc = [null];
    });
    const refused = await importRaw(send, token, JSON.stringify(nullKyc), { gzip: true });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'snapshot_invalid', param: 'tables.customers[0].kyc.0' });
    for (let i = 0; i < 2; i++) expect((await api.json('GET', '/v3/sandbox/clock')).status).toBe(200);
    expect(await query(url, 'SELECT id FROM snapshots')).toEqual([]);
    expect(await query(url, 'SELECT id FROM customers')).toEqual([]);

    const huge = edited(document, (doc) => {
      for (const rows of Object.values(doc.tables)) for (const row of rows) row.seq = Number.MAX_SAFE_INTEGER;
    });
    expect((await importRaw(send, token, JSON.stringify(huge))).status).toBe(201);
    expect(server.deps.store.meta.seq).toBeLessThan(1_000_000);
    const seqs = await query<{ seq: string }>(url, "SELECT record->>'seq' AS seq FROM events");
    expect(seqs.length).toBeGreaterThan(0);
    expect(seqs.every((row) => Number(row.seq) < 1_000_000)).toBe(true);
    const before = (await api.json('GET', '/v3/customers')).body;

    // The database refuses the snapshot row of the next import: nothing of it is kept.
    await query(
      url,
      `CREATE FUNCTION refuse_marked() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF NEW.record::text LIKE '%refuse-me%' THEN RAISE EXCEPTION 'refused by the test trigger'; END IF;
         RETURN NEW;
       END $$`,
    );
    await query(
      url,
      'CREATE TRIGGER refuse_marked BEFORE INSERT OR UPDATE ON snapshots FOR EACH ROW EXECUTE FUNCTION refuse_marked()',
    );
    const other = edited(document, (doc) => {
      firstRow(doc, 'customers').name = 'Someone Else';
    });
    const failed = await importRaw(send, token, JSON.stringify(other), {
      query: '?name=refuse-me&replace=true',
    });
    expect(failed.status).toBe(503);
    expect(failed.body.code).toBe('write_failed');
    expect((await api.json('GET', '/v3/customers')).body).toEqual(before);
    const names = await query<{ name: string }>(url, "SELECT record->>'name' AS name FROM snapshots");
    expect(names.map((r) => r.name)).toEqual([document.name]);
    const stored = await query<{ name: string }>(url, "SELECT record->>'name' AS name FROM customers");
    expect(stored.map((r) => r.name)).not.toContain('Someone Else');
  });

  it('answers 400 json_too_deep in any encoding, 422 for NUL, and 507 once the instance keeps its bound', async () => {
    const url = await freshDatabase('import_bounds');
    const document = await exportedWorld();
    const { send, api } = await start(url, [], JSON.stringify(document).length + 1000);
    const token = await api.token();
    const deep = `{"tables":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    for (const way of [{ gzip: true }, { contentType: 'application/octet-stream' }, { contentType: null }]) {
      const res = await importRaw(send, token, deep, way);
      expect(res.status, JSON.stringify(way)).toBe(400);
      expect(res.body.code).toBe('json_too_deep');
    }
    const nul = edited(document, (doc) => {
      firstRow(doc, 'customers').name = 'Maria\u0000';
    });
    expect((await importRaw(send, token, JSON.stringify(nul), { gzip: true })).body).toMatchObject({
      code: 'snapshot_invalid',
      param: 'tables.customers[0].name',
    });
    expect((await importRaw(send, token, JSON.stringify(document))).status).toBe(201);
    const full = await importRaw(send, token, JSON.stringify(document), { query: '?name=again' });
    expect(full.status).toBe(507);
    expect(full.body.code).toBe('snapshot_storage_full');
    expect(await query(url, "SELECT id FROM snapshots WHERE record->>'name' = 'again'")).toEqual([]);
  });

  it("repairs rows an older version let into the database when their partner loads; other partners' pages hold", async () => {
    const url = await freshDatabase('import_repair');
    const one = await start(url);
    const created = await one.api.json<{ id: string; client_id: string; client_secret: string }>(
      'POST',
      '/v3/sandbox/partners',
      { body: { name: 'other' } },
    );
    expect(created.status).toBe(201);
    await stop(one.server);

    // What the old import wrote: a null KYC item at seq 2^53 - 1, a clock at the end of time,
    // and then the other partner's customers with numbers past MAX_SAFE_INTEGER (some equal).
    const document = await exportedWorld();
    const template = { ...firstRow(document, 'customers'), kyc: [], review_job_id: null };
    const insert = (id: string, partner: string, record: Record<string, unknown>) =>
      query(url, 'INSERT INTO customers (id, partner_id, record) VALUES ($1, $2, $3)', [
        id,
        partner,
        JSON.stringify({ ...record, id, partner_id: partner }),
      ]);
    const bad = `cust_${'b'.repeat(32)}`;
    await insert(bad, DEFAULT_PARTNER_ID, { ...template, kyc: [null], seq: Number.MAX_SAFE_INTEGER });
    const ids = Array.from({ length: 10 }, (_, i) => `cust_${String(i).padStart(32, 'a')}`);
    for (const [i, id] of ids.entries()) {
      await insert(id, created.body.id, {
        ...template,
        cpf: generateCpf(String(300_000_000 + i)),
        seq: 2 ** 53 + 2 * Math.floor(i / 2),
      });
    }
    await query(
      url,
      `UPDATE partners SET record = json_build_object('id', id, 'seq', (record->>'seq')::bigint, 'name', record->>'name',
         'created_at', record->>'created_at', 'clock', json_build_object('offset_ms', 0, 'frozen_at_ms', 8640000000000000))
       WHERE id = $1`,
      [DEFAULT_PARTNER_ID],
    );

    const errors: string[] = [];
    const two = await start(url, errors);
    for (let i = 0; i < 2; i++) {
      expect((await two.api.json('GET', '/v3/sandbox/clock')).status).toBe(200);
      expect((await two.api.json('GET', `/v3/customers/${bad}`)).status).toBe(404);
    }
    expect(errors.join('\n')).toMatch(/ptn_default's clock read outside/);
    expect(errors.join('\n')).toMatch(/ptn_default's world held rows .*kyc\.0/);
    const other = partnerClient(two.send, created.body.client_id, created.body.client_secret);
    const seen: string[] = [];
    let after = '';
    for (;;) {
      const page = await other.json<{ data: { id: string }[]; has_more: boolean }>(
        'GET',
        `/v3/customers?limit=4&order=asc${after}`,
      );
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((c) => c.id));
      if (!page.body.has_more) break;
      after = `&starting_after=${page.body.data.at(-1)?.id}`;
    }
    expect(seen).toEqual(ids);
    expect((await other.json('POST', '/v3/customers', { body: { cpf: '52998224725' } })).status).toBe(201);
    // The repair is in the database.
    const seqs = await query<{ seq: string }>(url, "SELECT record->>'seq' AS seq FROM customers");
    expect(seqs.every((row) => Number(row.seq) < 1_000_000)).toBe(true);
    expect(await query(url, 'SELECT id FROM customers WHERE id = $1', [bad])).toEqual([]);
  });
});
