import { instant, LATEST_CLOCK_MS } from '../store/record-rules.js';
import type { PartnerWorld, WorldRow, WorldTables } from '../store/snapshot-records.js';
import { checkWorldRowsInSteps, type RowProblem } from '../store/world-check.js';
import { isWorldTable } from '../store/world-schemas.js';
import { ApiError } from './errors.js';
import { checkWorldRules, type WorldRules } from './snapshot-rules.js';
import { SNAPSHOT_FORMAT, SNAPSHOT_NAME, SNAPSHOT_VERSION } from './snapshots.js';

export type { WorldRules } from './snapshot-rules.js';

const MAX_ID_LENGTH = 300;

/** What an import brings: the name to keep it under and the world, rows already the importer's. */
export interface ImportedSnapshot {
  name: string;
  world: PartnerWorld;
}

function invalid(detail: string, param = 'body'): ApiError {
  return new ApiError('snapshot_invalid', `${detail} Nothing was imported.`, { param });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `tables.customers[0].kyc.0` */
function problemParam(problem: RowProblem): string {
  return `tables.${problem.table}[${problem.index}]${problem.field === 'row' ? '' : `.${problem.field}`}`;
}

function describe(problem: RowProblem): string {
  const which = problem.id === undefined ? '' : ` (id ${JSON.stringify(problem.id).slice(0, 120)})`;
  const field = problem.field === 'row' ? '' : `, field "${problem.field}"`;
  return `Row ${problem.index} of "${problem.table}"${which}${field}: ${problem.message}.`;
}

/** 422 `snapshot_invalid` naming the first problem (table, row id, field), listing up to 10. */
function rowsInvalid(problems: readonly RowProblem[]): ApiError {
  const first = problems[0] as RowProblem;
  const more = problems.length > 1 ? ` ${problems.length - 1} more problem(s) are listed in "errors".` : '';
  return new ApiError('snapshot_invalid', `${describe(first)}${more} Nothing was imported.`, {
    param: problemParam(first),
    errors: problems.map((p) => ({ param: problemParam(p), detail: describe(p), code: 'invalid_row' })),
  });
}

/**
 * Checks a parsed export document whole and returns its world with every row moved to
 * `partnerId` (ids kept; an idempotency key's id names its partner, so that prefix moves too).
 * Every row is checked like the API's own writes (its table's schema, references inside the world,
 * the running sandbox's rules); the rows returned are the checked copies. `pause` runs every
 * 1,000 rows (the caller lets other requests be served). Throws `snapshot_invalid` naming the first
 * problem; it never changes the store.
 */
export async function readSnapshotDocument(
  document: unknown,
  partnerId: string,
  tableNames: readonly string[],
  rules: WorldRules,
  pause: () => Promise<void> = async () => {},
): Promise<ImportedSnapshot> {
  if (!isObject(document)) throw invalid('The document is not a JSON object.');
  if (document.format !== SNAPSHOT_FORMAT) {
    throw invalid(`"format" must be "${SNAPSHOT_FORMAT}".`, 'format');
  }
  if (document.version !== SNAPSHOT_VERSION) {
    throw invalid(
      `Version ${JSON.stringify(document.version)?.slice(0, 40)} is unknown: this sandbox reads version ${SNAPSHOT_VERSION}.`,
      'version',
    );
  }
  const source = document.partner;
  if (typeof source !== 'string' || source.length === 0 || source.length > MAX_ID_LENGTH) {
    throw invalid('"partner" must be the id of the partner the snapshot was saved from.', 'partner');
  }
  const name = document.name;
  if (typeof name !== 'string' || !SNAPSHOT_NAME.test(name)) {
    throw invalid('"name" must match [a-z0-9][a-z0-9_.-]{0,62}.', 'name');
  }
  if (!instant.safeParse(document.saved_at).success) {
    throw invalid('"saved_at" must be a UTC date-time like 2026-03-02T12:00:00.000Z.', 'saved_at');
  }
  const clock = document.clock;
  const now = isObject(clock) ? instant.safeParse(clock.now) : undefined;
  if (
    !isObject(clock) ||
    !now?.success ||
    typeof clock.frozen !== 'boolean' ||
    Object.keys(clock).length !== 2
  ) {
    throw invalid(
      '"clock" must be {"now": a UTC date-time like 2026-03-02T12:00:00.000Z, "frozen": boolean}.',
      'clock',
    );
  }
  if (Date.parse(now.data) >= LATEST_CLOCK_MS) {
    throw invalid(
      `"clock.now" must be before ${new Date(LATEST_CLOCK_MS).toISOString()}: a partner clock reads no later (what it dates must stay within year 9999).`,
      'clock.now',
    );
  }
  const draws = document.random_draws;
  if (draws !== null && !(typeof draws === 'number' && Number.isSafeInteger(draws) && draws >= 0)) {
    throw invalid('"random_draws" must be null or a whole number of draws.', 'random_draws');
  }
  if (!isObject(document.tables)) throw invalid('"tables" must be an object of row arrays.', 'tables');
  const known = new Set(tableNames);
  for (const [table, rows] of Object.entries(document.tables)) {
    if (!known.has(table) || !isWorldTable(table)) {
      throw invalid(
        `"tables" has a table this sandbox does not know: ${JSON.stringify(table).slice(0, 80)}.`,
        'tables',
      );
    }
    if (!Array.isArray(rows)) throw invalid(`"tables.${table}" must be an array of rows.`, `tables.${table}`);
  }
  const checked = await run(
    checkWorldRowsInSteps(document.tables as Record<string, unknown[]>, source),
    pause,
  );
  if (checked.problems.length > 0) throw rowsInvalid(checked.problems);
  const ruled = [
    ...(await run(checkWorldRules(checked.tables, rules), pause)),
    ...idempotencyProblems(checked.tables, source),
  ];
  if (ruled.length > 0) throw rowsInvalid(ruled);
  return {
    name,
    world: {
      clock: { now: now.data, frozen: clock.frozen },
      random_draws: draws,
      tables: moveRows(checked.tables, source, partnerId),
    },
  };
}

/** Runs a check to its end, letting `pause` run between its steps. */
async function run<T>(steps: Generator<void, T>, pause: () => Promise<void>): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await pause();
  }
}

/** An idempotency key's id is `<partner> <key>`: one naming another partner would answer that partner's requests. */
function idempotencyProblems(tables: WorldTables, source: string): RowProblem[] {
  const problems: RowProblem[] = [];
  (tables.idempotency ?? []).forEach((row, index) => {
    if (!row.id.startsWith(`${source} `) || row.id.length === source.length + 1) {
      problems.push({
        table: 'idempotency',
        index,
        id: row.id,
        field: 'id',
        message: `must be "${source} <key>"`,
      });
    }
  });
  return problems.slice(0, 10);
}

/** The rows as the importer's: `partner_id`, and the partner prefix of idempotency key ids. */
function moveRows(tables: WorldTables, source: string, partnerId: string): WorldTables {
  const moved: WorldTables = {};
  for (const [table, rows] of Object.entries(tables)) {
    moved[table] = rows.map((row): WorldRow => {
      const id = table === 'idempotency' ? `${partnerId} ${row.id.slice(source.length + 1)}` : row.id;
      return { ...row, id, partner_id: partnerId };
    });
  }
  return moved;
}
