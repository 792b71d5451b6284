import type { WorldRow, WorldTables } from './snapshot-records.js';
import { MAX_PROBLEMS, type RowProblem } from './world-problem.js';
import type { WorldRowOf, WorldTableName } from './world-schemas.js';

/** Deliveries in these statuses are never sent again: their event or endpoint may be gone (events quota, deleted endpoint). */
const FINAL_DELIVERY = new Set(['succeeded', 'failed', 'skipped', 'cancelled']);

/** Payload fields of jobs that name a row, and the table that holds it. */
const PAYLOAD_REFERENCES: Record<string, WorldTableName> = {
  customer_id: 'customers',
  document_id: 'documents',
  credit_offer_id: 'credit_offers',
  loan_id: 'loans',
  transaction_id: 'transactions',
  delivery_id: 'webhook_deliveries',
};

interface Reference {
  /** The field as reported. */
  field: string;
  table: WorldTableName;
  /** The ids the row names through this field (null: none). */
  ids(row: never): (string | null | undefined)[];
}

const one = <T>(pick: (row: T) => string | null | undefined) => ((row: T) => [pick(row)]) as Reference['ids'];

/**
 * Every id a row of the world names, and the table of the same world that must hold it. What the
 * API lets dangle is left out: a final delivery's event (dropped by the events quota) and endpoint
 * (deleted); those deliveries are never sent again.
 */
const REFERENCES: { [T in WorldTableName]?: Reference[] } = {
  customers: [
    { field: 'review_job_id', table: 'jobs', ids: one<WorldRowOf<'customers'>>((r) => r.review_job_id) },
    {
      field: 'kyc.document_id',
      table: 'documents',
      ids: ((r: WorldRowOf<'customers'>) => r.kyc.map((item) => item.document_id)) as Reference['ids'],
    },
  ],
  documents: [
    { field: 'customer_id', table: 'customers', ids: one<WorldRowOf<'documents'>>((r) => r.customer_id) },
  ],
  biometrics_sessions: [
    {
      field: 'customer_id',
      table: 'customers',
      ids: one<WorldRowOf<'biometrics_sessions'>>((r) => r.customer_id),
    },
  ],
  credit_offers: [
    { field: 'customer_id', table: 'customers', ids: one<WorldRowOf<'credit_offers'>>((r) => r.customer_id) },
    {
      field: 'latest_simulation_id',
      table: 'simulations',
      ids: one<WorldRowOf<'credit_offers'>>((r) => r.latest_simulation_id),
    },
  ],
  simulations: [
    {
      field: 'credit_offer_id',
      table: 'credit_offers',
      ids: one<WorldRowOf<'simulations'>>((r) => r.credit_offer_id),
    },
    { field: 'customer_id', table: 'customers', ids: one<WorldRowOf<'simulations'>>((r) => r.customer_id) },
  ],
  loans: [
    { field: 'customer_id', table: 'customers', ids: one<WorldRowOf<'loans'>>((r) => r.customer_id) },
    {
      field: 'credit_offer_id',
      table: 'credit_offers',
      ids: one<WorldRowOf<'loans'>>((r) => r.credit_offer_id),
    },
    { field: 'simulation_id', table: 'simulations', ids: one<WorldRowOf<'loans'>>((r) => r.simulation_id) },
  ],
  transactions: [
    { field: 'loan_id', table: 'loans', ids: one<WorldRowOf<'transactions'>>((r) => r.loan_id) },
  ],
  webhook_deliveries: [
    {
      field: 'event_id',
      table: 'events',
      ids: one<WorldRowOf<'webhook_deliveries'>>((r) => (FINAL_DELIVERY.has(r.status) ? null : r.event_id)),
    },
    {
      field: 'endpoint_id',
      table: 'webhook_endpoints',
      ids: one<WorldRowOf<'webhook_deliveries'>>((r) =>
        FINAL_DELIVERY.has(r.status) ? null : r.endpoint_id,
      ),
    },
    { field: 'job_id', table: 'jobs', ids: one<WorldRowOf<'webhook_deliveries'>>((r) => r.job_id) },
    {
      field: 'chaos.duplicate_delivery_id',
      table: 'webhook_deliveries',
      ids: ((r: WorldRowOf<'webhook_deliveries'>) =>
        (r.chaos ?? []).map((act) => act.duplicate_delivery_id)) as Reference['ids'],
    },
  ],
  jobs: Object.entries(PAYLOAD_REFERENCES).map(([field, table]) => ({
    field: `payload.${field}`,
    table,
    ids: ((r: WorldRowOf<'jobs'>) => {
      const value = r.payload[field];
      return [typeof value === 'string' ? value : null];
    }) as Reference['ids'],
  })),
};

/** Values that one row of a table may hold at most once in a world. */
const UNIQUE: { [T in WorldTableName]?: { field: string; key(row: never): string | null }[] } = {
  customers: [
    { field: 'cpf', key: ((r: WorldRowOf<'customers'>) => r.cpf) as never },
    { field: 'cnpj', key: ((r: WorldRowOf<'customers'>) => r.cnpj) as never },
  ],
  biometrics_sessions: [
    { field: 'token_hash', key: ((r: WorldRowOf<'biometrics_sessions'>) => r.token_hash) as never },
  ],
  transactions: [
    {
      field: 'installment_number',
      key: ((r: WorldRowOf<'transactions'>) => `${r.loan_id} ${r.installment_number}`) as never,
    },
  ],
};

/** References and unique values, over rows that passed their schemas. */
export function checkLinks(tables: WorldTables, problems: RowProblem[]): void {
  const held = new Map<string, Set<string>>();
  const idsOf = (table: string) => {
    let ids = held.get(table);
    if (!ids) {
      ids = new Set((tables[table] ?? []).map((row) => row.id));
      held.set(table, ids);
    }
    return ids;
  };
  for (const [table, rows] of Object.entries(tables) as [WorldTableName, WorldRow[]][]) {
    const references = REFERENCES[table] ?? [];
    const unique = (UNIQUE[table] ?? []).map((u) => ({ ...u, seen: new Set<string>() }));
    for (let index = 0; index < rows.length && problems.length < MAX_PROBLEMS; index++) {
      const row = rows[index] as WorldRow;
      for (const reference of references) {
        for (const id of reference.ids(row as never)) {
          if (id === null || id === undefined || idsOf(reference.table).has(id)) continue;
          const message = `names ${id}, which is not a row of "${reference.table}" in this world`;
          problems.push({ table, index, id: row.id, field: reference.field, message });
        }
      }
      for (const u of unique) {
        const key = u.key(row as never);
        if (key === null) continue;
        if (u.seen.has(key)) {
          problems.push({
            table,
            index,
            id: row.id,
            field: u.field,
            message: 'is held by another row of this world',
          });
        }
        u.seen.add(key);
      }
    }
  }
  problems.splice(MAX_PROBLEMS);
}
