import { describe, expect, it } from 'vitest';
import { DEFAULT_PARTNER_ID } from '../../src/domain/default-partner.js';
import { memoryPersistence, type Persistence } from '../../src/store/persistence.js';
import { StorageHealth } from '../../src/store/storage-health.js';
import type { TableIndex } from '../../src/store/types.js';
import { CPF, createCustomer } from '../support/customers.js';
import { createTestSandbox, type TestSandbox } from '../support/sandbox.js';
import {
  edited,
  exportedWorld,
  firstRow,
  importRaw,
  type SnapshotDocument,
  sendTo,
} from '../support/snapshot-imports.js';
import { acceptAll, worldRows } from '../support/snapshots.js';

// Issue 40's finding 3: rows were checked shallowly, and one import that failed late was kept.

async function target(persistence?: Persistence): Promise<{ sandbox: TestSandbox; token: string }> {
  const sandbox = createTestSandbox({}, { webhookSender: acceptAll, ...(persistence && { persistence }) });
  await createCustomer(sandbox, { cpf: CPF.other });
  return { sandbox, token: await sandbox.token() };
}

/** The partner's rows and snapshots: what a refused import must leave as they were. */
function picture(sandbox: TestSandbox) {
  return {
    rows: worldRows(sandbox.deps.store, DEFAULT_PARTNER_ID),
    snapshots: [...sandbox.deps.store.snapshots.values()].map((s) => s.id),
    clock: sandbox.deps.engine.clockView(DEFAULT_PARTNER_ID),
  };
}

const BAD: [string, (doc: SnapshotDocument) => void, string, RegExp][] = [
  [
    'money as a number',
    (doc) => {
      firstRow(doc, 'loans').requested_amount = 1000;
    },
    'tables.loans[0].requested_amount',
    /Row 0 of "loans" \(id "ln_\w+"\), field "requested_amount": .*expected string/,
  ],
  [
    'an invalid KYC item',
    (doc) => {
      (firstRow(doc, 'customers').kyc as Record<string, unknown>[])[1] = {
        kind: 'document',
        status: 'bogus',
      };
    },
    'tables.customers[0].kyc.1.type',
    /field "kyc\.1\.type"/,
  ],
  [
    'a loan whose customer the world does not hold',
    (doc) => {
      firstRow(doc, 'loans').customer_id = `cust_${'e'.repeat(32)}`;
    },
    'tables.loans[0].customer_id',
    /names cust_e+, which is not a row of "customers"/,
  ],
  [
    'a loan whose offer the world does not hold',
    (doc) => {
      firstRow(doc, 'loans').credit_offer_id = `co_${'e'.repeat(32)}`;
    },
    'tables.loans[0].credit_offer_id',
    /not a row of "credit_offers"/,
  ],
  [
    'an invalid delivery',
    (doc) => {
      firstRow(doc, 'webhook_deliveries').attempts = [{}];
    },
    'tables.webhook_deliveries[0].attempts.0.attempt_number',
    /field "attempts\.0\.attempt_number"/,
  ],
  [
    'a clock at the end of time',
    (doc) => {
      doc.clock.now = '9999-12-31T23:59:59.999Z';
    },
    'clock.now',
    /before 9900-01-01/,
  ],
  [
    'a job of a kind the engine does not run',
    (doc) => {
      firstRow(doc, 'jobs').kind = 'loan.explode';
    },
    'tables.jobs[0].kind',
    /not a job kind/,
  ],
  [
    "a job payload naming a row that is not the world's",
    (doc) => {
      firstRow(doc, 'jobs').payload = { credit_offer_id: `co_${'f'.repeat(32)}` };
    },
    'tables.jobs[0].payload.credit_offer_id',
    /not a row of "credit_offers"/,
  ],
  [
    'event data an event of its type never carries',
    (doc) => {
      firstRow(doc, 'events').data = { id: 1 };
    },
    'tables.events[0].data',
    /not what a customer\.created event carries/,
  ],
  [
    'a duplicate id',
    (doc) => {
      doc.tables.customers?.push({ ...firstRow(doc, 'customers') });
    },
    'tables.customers[1].id',
    /appears twice/,
  ],
  [
    "an idempotency key of another partner's",
    (doc) => {
      firstRow(doc, 'idempotency').id = 'ptn_victim endpoint-1';
    },
    'tables.idempotency[0].id',
    /must be "ptn_default <key>"/,
  ],
];

describe('an import checks every row like the API writes it (finding 3)', () => {
  it('refuses each hand-damaged world with 422 naming table, row id and field, and keeps nothing', async () => {
    const document = await exportedWorld();
    const { sandbox, token } = await target();
    const before = picture(sandbox);
    for (const [what, change, param, detail] of BAD) {
      const res = await importRaw(sendTo(sandbox), token, JSON.stringify(edited(document, change)));
      expect(res.status, what).toBe(422);
      expect(res.body.code, what).toBe('snapshot_invalid');
      expect(res.body.param, what).toBe(param);
      expect(String(res.body.detail), what).toMatch(detail);
      expect(String(res.body.detail), what).toMatch(/Nothing was imported/);
      expect(picture(sandbox), what).toEqual(before);
    }
    // Several problems: the first named in the detail, up to 10 listed.
    const many = edited(document, (doc) => {
      for (const row of doc.tables.events ?? []) row.timestamp = 'yesterday';
    });
    const res = await importRaw(sendTo(sandbox), token, JSON.stringify(many));
    expect(res.status).toBe(422);
    expect((res.body.errors as unknown[]).length).toBe(Math.min(10, document.tables.events?.length ?? 0));
    expect(picture(sandbox)).toEqual(before);
  });

  it('is all or nothing: a step that fails after the checks leaves no world and no snapshot behind', async () => {
    const document = await exportedWorld();
    const loanId = String(firstRow(document, 'loans').id);
    const failing = (what: string): TableIndex<{ id: string }> => ({
      add: (row) => {
        if (row.id.includes(what)) throw new Error(`injected failure adding ${row.id}`);
      },
      addAll: (rows) => {
        for (const row of rows)
          if (row.id.includes(what)) throw new Error(`injected failure adding ${row.id}`);
      },
      remove: () => {},
      clear: () => {},
    });

    // 1. Putting the rows in place fails half-way (the loans table, after others were swapped).
    const one = await target();
    one.sandbox.deps.store.loans.index(failing(loanId) as TableIndex<never>);
    const before = picture(one.sandbox);
    const applied = await importRaw(sendTo(one.sandbox), one.token, JSON.stringify(document));
    expect(applied.status).toBe(500);
    expect(picture(one.sandbox)).toEqual(before);
    expect((await one.sandbox.json('GET', '/v3/customers')).status).toBe(200);

    // 2. Keeping the snapshot fails.
    const two = await target();
    two.sandbox.deps.store.snapshots.index(failing(' fixture') as TableIndex<never>);
    const before2 = picture(two.sandbox);
    expect((await importRaw(sendTo(two.sandbox), two.token, JSON.stringify(document))).status).toBe(500);
    expect(picture(two.sandbox)).toEqual(before2);

    // 3. Writing it fails with an error the backend did not roll back (the import puts it back;
    // a full disk, which the journal rolls back itself, is snapshot-import-full-disk.test.ts).
    let refuse = false;
    const flaky: Persistence = {
      flush: async () => {
        if (refuse) {
          refuse = false;
          throw new Error('injected: the disk refused the write');
        }
      },
      close: memoryPersistence.close,
      health: new StorageHealth(),
    };
    const three = await target(flaky);
    const before3 = picture(three.sandbox);
    refuse = true;
    expect((await importRaw(sendTo(three.sandbox), three.token, JSON.stringify(document))).status).toBe(500);
    expect(picture(three.sandbox)).toEqual(before3);
    // And the same document imports once nothing fails.
    expect((await importRaw(sendTo(three.sandbox), three.token, JSON.stringify(document))).status).toBe(201);
  });
});
