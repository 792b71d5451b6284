import type { z } from 'zod';
import type { WorldRow, WorldTables } from './snapshot-records.js';
import { isWorldTable, WORLD_ROW_SCHEMAS, type WorldRowOf, type WorldTableName } from './world-schemas.js';

/** One row that fails a check: where it is, which field, and what is wrong. */
export interface RowProblem {
  table: string;
  /** Position of the row in its table's array. */
  index: number;
  /** The row's id, when it has a readable one. */
  id: string | undefined;
  /** Dotted path of the field inside the row (`kyc.0.status`), or `id` / `seq` / `partner_id`. */
  field: string;
  message: string;
}

/** A world whose rows passed their schemas (parsed: every row is a fresh, checked object), or why not. */
export interface CheckedWorld {
  tables: WorldTables;
  problems: RowProblem[];
}

/** Problems reported at most (the first one names the row in the answer's detail). */
export const MAX_PROBLEMS = 10;

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

function rowId(row: unknown): string | undefined {
  const id = (row as { id?: unknown } | null)?.id;
  return typeof id === 'string' && id.length <= 300 ? id : undefined;
}

/**
 * The parsed value with its object keys in the order the input had them: a schema's output lists
 * them in the schema's order, and answers that pass a row's nested objects on (a loan's
 * `disbursement`, a delivery's attempts) must not change their key order by an export and import.
 */
function inInputOrder(output: unknown, input: unknown): unknown {
  if (Array.isArray(output)) {
    return Array.isArray(input) ? output.map((item, i) => inInputOrder(item, input[i])) : output;
  }
  if (output === null || typeof output !== 'object' || input === null || typeof input !== 'object') {
    return output;
  }
  const source = output as Record<string, unknown>;
  const ordered: Record<string, unknown> = {};
  for (const key of Object.keys(input)) {
    if (Object.hasOwn(source, key))
      ordered[key] = inInputOrder(source[key], (input as Record<string, unknown>)[key]);
  }
  for (const key of Object.keys(source)) if (!Object.hasOwn(ordered, key)) ordered[key] = source[key];
  return ordered;
}

/** The first issue of a failed parse as a problem of the row. */
function schemaProblem(table: string, index: number, row: unknown, error: z.ZodError): RowProblem {
  const issue = error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : 'row';
  return { table, index, id: rowId(row), field, message: issue?.message ?? 'is invalid' };
}

/**
 * Checks every row of a world: its table's schema, its owner (`owner`), ids unique per table, then
 * (once every row is well formed) that every id a row names is a row of the same world and that
 * values the API keeps unique (a CPF per partner, …) are. Returns the parsed rows, or the problems
 * (at most MAX_PROBLEMS, table by table). Never changes anything.
 */
export function checkWorldRows(input: Record<string, readonly unknown[]>, owner: string): CheckedWorld {
  // Rows of a table that is not an array (stored data of another shape) are one problem, not a crash.
  const problems: RowProblem[] = [];
  const tables: WorldTables = {};
  const full = () => problems.length >= MAX_PROBLEMS;
  for (const [table, rows] of Object.entries(input)) {
    if (!Array.isArray(rows)) {
      problems.push({ table, index: 0, id: undefined, field: 'row', message: 'is not an array of rows' });
      continue;
    }
    if (!isWorldTable(table)) {
      problems.push({
        table,
        index: 0,
        id: undefined,
        field: 'row',
        message: 'is in a table a world does not hold',
      });
      continue;
    }
    const schema: z.ZodType = WORLD_ROW_SCHEMAS[table];
    const out: WorldRow[] = [];
    const ids = new Set<string>();
    for (let index = 0; index < rows.length && !full(); index++) {
      const row = rows[index];
      const parsed = schema.safeParse(row);
      if (!parsed.success) {
        problems.push(schemaProblem(table, index, row, parsed.error));
        continue;
      }
      const value = inInputOrder(parsed.data, row) as WorldRow & { partner_id: string };
      if (value.partner_id !== owner) {
        problems.push({ table, index, id: value.id, field: 'partner_id', message: `must be "${owner}"` });
      } else if (ids.has(value.id)) {
        problems.push({ table, index, id: value.id, field: 'id', message: 'appears twice in this table' });
      }
      ids.add(value.id);
      out.push(value);
    }
    tables[table] = out;
  }
  if (problems.length === 0) checkLinks(tables, problems);
  return { tables, problems };
}

/** References and unique values, over rows that passed their schemas. */
function checkLinks(tables: WorldTables, problems: RowProblem[]): void {
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
