import { describe, expect, it } from 'vitest';
import { exportedWorld, firstRow, type SnapshotDocument } from '../../test/support/snapshot-imports.js';
import { NOT_IN_SNAPSHOTS, snapshotTableNames } from './partner-world.js';
import { Store } from './store.js';
import { checkWorldRows, MAX_PROBLEMS } from './world-check.js';
import { WORLD_ROW_SCHEMAS } from './world-schemas.js';

async function world(): Promise<SnapshotDocument> {
  return structuredClone(await exportedWorld());
}

function check(document: SnapshotDocument) {
  return checkWorldRows(document.tables, document.partner);
}

describe('world rows', () => {
  it('has one row schema for every table a snapshot holds', () => {
    expect(Object.keys(WORLD_ROW_SCHEMAS).sort()).toEqual(snapshotTableNames(new Store('key')).sort());
    for (const name of Object.keys(NOT_IN_SNAPSHOTS))
      expect(Object.hasOwn(WORLD_ROW_SCHEMAS, name)).toBe(false);
  });

  it('accepts a real export, returning fresh rows with their keys in the order they came', async () => {
    const document = await world();
    const checked = check(document);
    expect(checked.problems).toEqual([]);
    expect(checked.tables).toEqual(document.tables);
    const endpoint = firstRow(document, 'webhook_endpoints');
    expect(Object.keys(checked.tables.webhook_endpoints?.[0] ?? {})).toEqual(Object.keys(endpoint));
    expect(checked.tables.customers?.[0]).not.toBe(firstRow(document, 'customers'));
  });

  it('names table, row, id and field of what a schema refuses', async () => {
    const document = await world();
    firstRow(document, 'customers').kyc = [null];
    firstRow(document, 'loans').requested_amount = 1000;
    const { problems } = check(document);
    expect(problems).toEqual([
      expect.objectContaining({
        table: 'customers',
        index: 0,
        id: firstRow(document, 'customers').id,
        field: 'kyc.0',
      }),
      expect.objectContaining({ table: 'loans', index: 0, field: 'requested_amount' }),
    ]);
  });

  it('refuses rows of another partner, repeated ids, and ids that name no row of the world', async () => {
    const owner = await world();
    firstRow(owner, 'documents').partner_id = 'ptn_other';
    expect(check(owner).problems[0]).toMatchObject({ table: 'documents', field: 'partner_id' });

    const twice = await world();
    twice.tables.simulations?.push({ ...firstRow(twice, 'simulations') });
    expect(check(twice).problems[0]).toMatchObject({ table: 'simulations', index: 1, field: 'id' });

    const dangling = await world();
    firstRow(dangling, 'credit_offers').latest_simulation_id = `sim_${'9'.repeat(32)}`;
    firstRow(dangling, 'jobs').payload = { credit_offer_id: `co_${'9'.repeat(32)}` };
    expect(check(dangling).problems).toEqual([
      expect.objectContaining({ table: 'jobs', field: 'payload.credit_offer_id' }),
      expect.objectContaining({ table: 'credit_offers', field: 'latest_simulation_id' }),
    ]);
  });

  it('lets a final delivery keep an event or endpoint that is gone, as the API does', async () => {
    const document = await world();
    const delivery = firstRow(document, 'webhook_deliveries');
    delivery.endpoint_id = `we_${'9'.repeat(32)}`;
    delivery.event_id = `evt_${'9'.repeat(32)}`;
    expect(delivery.status).toBe('succeeded');
    expect(check(document).problems).toEqual([]);
    delivery.status = 'pending';
    expect(check(document).problems.map((p) => p.field)).toEqual(['event_id', 'endpoint_id']);
  });

  it('refuses values the API keeps unique (a CPF per partner)', async () => {
    const document = await world();
    document.tables.customers?.push({ ...firstRow(document, 'customers'), id: `cust_${'9'.repeat(32)}` });
    expect(check(document).problems[0]).toMatchObject({ table: 'customers', index: 1, field: 'cpf' });
  });

  it('reports at most MAX_PROBLEMS, and tables a world does not hold instead of throwing', async () => {
    const document = await world();
    for (const row of document.tables.events ?? []) row.type = 1;
    expect(check(document).problems.length).toBe(Math.min(MAX_PROBLEMS, document.tables.events?.length ?? 0));
    const odd = checkWorldRows({ partners: [], customers: 'x' as never }, 'ptn_default');
    expect(odd.problems.map((p) => p.table)).toEqual(['partners', 'customers']);
  });
});
