import { describe, expect, it } from 'vitest';
import { CPF } from '../support/customers.js';
import { freshDatabase, query } from './support/database.js';
import { startInstance, stopInstance } from './support/fleet.js';
import { httpSandbox } from './support/http-sandbox.js';
import { newPartner } from './support/journey.js';

/** Makes the real database refuse one kind of write: any row whose record mentions `marker`. */
async function refuseRowsMentioning(url: string, table: string, marker: string): Promise<void> {
  await query(
    url,
    `CREATE FUNCTION refuse_marked() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       IF NEW.record::text LIKE '%${marker}%' THEN RAISE EXCEPTION 'refused by the test trigger'; END IF;
       RETURN NEW;
     END $$`,
  );
  await query(
    url,
    `CREATE TRIGGER refuse_marked BEFORE INSERT OR UPDATE ON ${table} FOR EACH ROW EXECUTE FUNCTION refuse_marked()`,
  );
}

describe('a flush the database refuses', () => {
  it('answers an error, leaves no trace in reads, and never blocks other partners', async () => {
    const url = await freshDatabase('flush_failure');
    const instance = await startInstance(url);
    try {
      const a = httpSandbox(() => instance.url);
      const b = await newPartner(a, () => instance.url, 'other');
      await refuseRowsMentioning(url, 'customers', 'Refuse Me');

      const refused = await a.json<{ code: string }>('POST', '/v3/customers', {
        body: { cpf: CPF.plain, name: 'Refuse Me' },
      });
      // POST /customers is in the spec's status table, whose only 5xx is 500 (elsewhere 503).
      expect(refused.status).toBe(500);
      expect(refused.body.code).toBe('write_failed');
      // No trace: not in reads (the partner was reloaded from the database), not in the database.
      const list = await a.json<{ data: unknown[] }>('GET', '/v3/customers');
      expect(list.status).toBe(200);
      expect(list.body.data).toEqual([]);
      expect(await query(url, 'SELECT id FROM customers')).toEqual([]);

      // Later writes of both partners succeed, and a refused write in the same group commit as
      // another partner's write fails alone.
      const [again, other] = await Promise.all([
        a.json('POST', '/v3/customers', { body: { cpf: CPF.other, name: 'Refuse Me' } }),
        b.json('POST', '/v3/customers', { body: { cpf: CPF.plain, name: 'Fine' } }),
      ]);
      expect(again.status).toBe(500);
      expect(other.status).toBe(201);
      const ok = await a.json('POST', '/v3/customers', { body: { cpf: CPF.plain, name: 'Fine' } });
      expect(ok.status).toBe(201);
      const tokens = await Promise.all([a.token(), b.token()]);
      expect(tokens).toHaveLength(2);
      const names = await query<{ name: string }>(url, "SELECT record->>'name' AS name FROM customers");
      expect(names.map((r) => r.name).sort()).toEqual(['Fine', 'Fine']);
      expect(instance.output.join('\n')).toMatch(/refused by the test trigger/);
    } finally {
      await stopInstance(instance);
    }
  });

  it('fails the shutdown (exit non-zero) when the last flush fails, saying what was not saved', async () => {
    const url = await freshDatabase('flush_failure_stop');
    const instance = await startInstance(url);
    const a = httpSandbox(() => instance.url);
    expect((await a.json('GET', '/v3/sandbox/clock')).status).toBe(200);
    await refuseRowsMentioning(url, 'requests', 'refuse-at-stop');
    // A read's log entry is written by the next flush (within a second): here, the last one.
    expect((await a.json('GET', '/v3/customers/cust_refuse-at-stop')).status).toBe(404);
    instance.process.kill('SIGTERM');
    expect(await instance.exited).not.toBe(0);
    expect(instance.output.join('\n')).toMatch(/not saved.*ptn_default.*requests \d+/s);
  });
});
