import type { z } from 'zod';
import type { WorldRow, WorldTables } from './snapshot-records.js';
import { checkLinks } from './world-links.js';
import { MAX_PROBLEMS, type RowProblem } from './world-problem.js';
import { isWorldTable, WORLD_ROW_SCHEMAS } from './world-schemas.js';

export { MAX_PROBLEMS, type RowProblem } from './world-problem.js';

/** A world whose rows passed their schemas (parsed: every row is a fresh, checked object), or why not. */
export interface CheckedWorld {
  tables: WorldTables;
  problems: RowProblem[];
}

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

/** Rows checked between two pauses of `checkWorldRowsInSteps`. */
const ROWS_PER_STEP = 1000;

/**
 * Checks every row of a world: its table's schema, its owner (`owner`), ids unique per table, then
 * (once every row is well formed) that every id a row names is a row of the same world and that
 * values the API keeps unique (a CPF per partner, …) are. Returns the parsed rows, or the problems
 * (at most MAX_PROBLEMS, table by table). Never changes anything.
 */
export function checkWorldRows(input: Record<string, readonly unknown[]>, owner: string): CheckedWorld {
  const steps = checkWorldRowsInSteps(input, owner);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * `checkWorldRows` one step at a time: it pauses after every ROWS_PER_STEP rows, so a caller can
 * let the event loop serve other requests in between (a 16 MiB world takes a while to check).
 */
export function* checkWorldRowsInSteps(
  input: Record<string, readonly unknown[]>,
  owner: string,
): Generator<void, CheckedWorld> {
  const problems: RowProblem[] = [];
  const tables: WorldTables = {};
  const full = () => problems.length >= MAX_PROBLEMS;
  for (const [table, rows] of Object.entries(input)) {
    // Rows of a table that is not an array (stored data of another shape) are a problem, not a crash.
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
      if (index > 0 && index % ROWS_PER_STEP === 0) yield;
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
