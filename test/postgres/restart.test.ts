import { describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import { type RunningServer, startServer } from '../../src/server.js';
import { migrate } from '../../src/store/postgres/migrate.js';
import {
  activeCustomer,
  advanceClock,
  createLoan,
  eventsOf,
  getLoan,
  type OfferBody,
  offersOf,
  simulate,
  TIER_CPF,
  transactionsOf,
} from '../support/credit.js';
import { freshDatabase, query } from './support/database.js';
import { httpSandbox } from './support/http-sandbox.js';

const silent = { info: () => {}, error: () => {} };

function start(databaseUrl: string): Promise<RunningServer> {
  return startServer({
    port: 0,
    host: '127.0.0.1',
    databaseUrl,
    publicUrl: 'http://sandbox.test',
    clockMode: 'frozen',
    webhookHttpHosts: [],
    rateLimit: 0,
    credential: { clientId: DEFAULT_CLIENT_ID, clientSecret: DEFAULT_CLIENT_SECRET },
    log: silent,
  });
}

describe('serve --database (PostgreSQL as the store of record)', () => {
  it('applies the migrations once, in order, however many instances start', async () => {
    const url = await freshDatabase('migrations');
    const [a, b] = await Promise.all([start(url), start(url)]);
    const applied = await query<{ name: string }>(url, 'SELECT name FROM schema_migrations ORDER BY name');
    expect(applied.map((r) => r.name)).toEqual([
      '001_tables.sql',
      '002_partner_leases.sql',
      '003_requests.sql',
      '004_snapshots.sql',
      '005_fault_rules.sql',
      '006_records_as_json.sql',
      '007_random_counters.sql',
      '008_partner_lifetimes.sql',
    ]);
    await Promise.all([a.close(), b.close()]);
    const pg = await import('pg');
    const pool = new pg.default.Pool({ connectionString: url });
    expect(await migrate(pool)).toEqual([]);
    await pool.end();
  });

  it('has each write in PostgreSQL before its response, and a restart restores everything', async () => {
    const url = await freshDatabase('restart');
    const first = await start(url);
    const api = httpSandbox(() => first.url);
    const customer = await activeCustomer(api, { cpf: TIER_CPF.standard });
    // The response was sent only after the transaction committed: the row is there already.
    const rows = await query<{ partner_id: string; record: { status: string } }>(
      url,
      'SELECT partner_id, record FROM customers WHERE id = $1',
      [customer.id],
    );
    expect(rows).toEqual([
      { partner_id: 'ptn_default', record: expect.objectContaining({ status: 'active' }) },
    ]);

    const offer = (await offersOf(api, customer.id))[0] as OfferBody;
    const sim = await simulate(api, offer.id, '2000.00', 12);
    const loan = await createLoan(api, offer.id, sim.id);
    await advanceClock(api, { by: '3s' });
    const awaiting = await getLoan(api, loan.id);
    expect(awaiting.status).toBe('awaiting_signatures');
    const eventsBefore = await eventsOf(api);
    const tokenBefore = await api.token();
    await first.close();

    const second = await start(url);
    const again = httpSandbox(() => second.url);
    // Same signing key from the database: a token issued before the restart still works.
    const res = await fetch(`${second.url}/v3/loans/${loan.id}`, {
      headers: { authorization: `Bearer ${tokenBefore}` },
    });
    expect(res.status).toBe(200);
    expect(await getLoan(again, loan.id)).toEqual(awaiting);
    expect(await eventsOf(again)).toEqual(eventsBefore);
    // The pending jobs came back too: signing, then the disbursement jobs run on the restored clock.
    const page = await fetch(`${second.url}${new URL(awaiting.signing_url as string).pathname}/sign`, {
      method: 'POST',
      redirect: 'manual',
    });
    expect(page.status).toBe(303);
    await advanceClock(again, { by: '5s' });
    expect((await getLoan(again, loan.id)).status).toBe('active');
    expect(await transactionsOf(again, loan.id)).toHaveLength(12);
    await second.close();

    const third = await start(url);
    expect(
      (
        await getLoan(
          httpSandbox(() => third.url),
          loan.id,
        )
      ).status,
    ).toBe('active');
    await third.close();
  });

  it('writes deletes too (reset wipes the partner in the database)', async () => {
    const url = await freshDatabase('deletes');
    const server = await start(url);
    const api = httpSandbox(() => server.url);
    await activeCustomer(api, { cpf: TIER_CPF.standard });
    const count = async () =>
      Number((await query<{ n: string }>(url, 'SELECT count(*) AS n FROM customers'))[0]?.n);
    expect(await count()).toBe(1);
    expect((await api.json('POST', '/v3/sandbox/reset')).status).toBe(200);
    expect(await count()).toBe(0);
    await server.close();
  });
});
