import { captureWorldTables, replaceWorldTables } from './partner-world.js';
import { EARLIEST_MS, LATEST_CLOCK_MS } from './record-rules.js';
import type { ClockState, PartnerRecord } from './records.js';
import { repairSequence } from './seq-repair.js';
import type { SnapshotRecord } from './snapshot-records.js';
import type { Store } from './store.js';
import { checkWorldRowsInSteps, type RowProblem } from './world-check.js';

/** Where a repair says what it found and did (the server's error log). */
export interface RepairLog {
  error(message: string): void;
}

/**
 * The version of the checks below: a data file (`--data`) whose meta says it was checked by this
 * version is not checked again at every start (everything written since was checked on its way in).
 */
export const ROWS_CHECKED = 1;

function describe(problem: RowProblem): string {
  return `row ${problem.index} of ${problem.table} (${problem.id ?? 'no id'}): ${problem.field} ${problem.message}`;
}

/** Whether a partner clock reads an instant the API can handle (1970 to LATEST_CLOCK_MS). */
function soundClock(clock: ClockState | undefined, realNow: number): boolean {
  if (!clock || !Number.isFinite(clock.offset_ms)) return false;
  const reading = clock.frozen_at_ms ?? realNow + clock.offset_ms;
  return Number.isFinite(reading) && reading >= EARLIEST_MS && reading < LATEST_CLOCK_MS;
}

/**
 * Checks what was loaded from storage that an older version may have let in unchecked (a snapshot
 * import checked rows shallowly): the insertion counter (see `repairSequence`), each partner's
 * clock, its world's rows (the import's schemas and references) and each of its snapshots. What
 * fails is set aside so that it cannot fail requests or stop the process: a clock out of range
 * starts again at real time, a world that fails is emptied (the partner starts over, keeping its
 * credentials and snapshots), a snapshot that fails is deleted. Each repair is logged with the
 * partner, table, row and field, and recorded as a change, so the next flush saves it.
 * `partnerIds`: the partners just loaded (shared mode loads partner by partner); all when absent.
 */
export function repairStoredData(store: Store, options: RepairOptions): void {
  const steps = repairSteps(store, options);
  while (!steps.next().done) {
    // One step after the other, in one go (a start, before anything is served).
  }
}

/**
 * `repairStoredData`, letting `pause` run every 1,000 rows checked (a takeover while serving; by
 * default one turn of the event loop, so other requests are served meanwhile).
 */
export async function repairStoredDataPausing(
  store: Store,
  options: RepairOptions,
  pause: () => Promise<void> = () => new Promise((go) => setImmediate(go)),
): Promise<void> {
  const steps = repairSteps(store, options);
  while (!steps.next().done) await pause();
}

export interface RepairOptions {
  /** The partners just loaded (shared mode loads partner by partner); all when absent. */
  partnerIds?: readonly string[] | undefined;
  realNow: number;
  log: RepairLog;
}

function* repairSteps(store: Store, options: RepairOptions): Generator<void, void> {
  const { log } = options;
  const renumbered = repairSequence(store);
  if (renumbered > 0) {
    log.error(
      `storage: ${renumbered} rows had insertion numbers past ${2 ** 50} (written by an older version's snapshot import); they were renumbered in their order`,
    );
  }
  const partners = options.partnerIds
    ? options.partnerIds
        .map((id) => store.partners.get(id))
        .filter((p): p is PartnerRecord => p !== undefined)
    : [...store.partners.values()];
  for (const partner of partners) {
    if (!soundClock(partner.clock, options.realNow)) {
      const frozen = partner.clock?.frozen_at_ms !== null && partner.clock?.frozen_at_ms !== undefined;
      const clock: ClockState = { offset_ms: 0, frozen_at_ms: frozen ? options.realNow : null };
      store.partners.replace({ ...partner, clock });
      log.error(`storage: partner ${partner.id}'s clock read outside 1970..9899; it reads real time again`);
    }
    const world = yield* checkWorldRowsInSteps(captureWorldTables(store, partner.id), partner.id);
    if (world.problems.length > 0) {
      replaceWorldTables(store, partner.id, {});
      log.error(
        `storage: partner ${partner.id}'s world held rows this version refuses (${world.problems.map(describe).join('; ')}); its world was emptied (credentials and snapshots kept)`,
      );
    }
    for (const snapshot of store.snapshots.values()) {
      if (snapshot.partner_id !== partner.id) continue;
      const problem = yield* snapshotProblem(snapshot);
      if (problem) {
        store.snapshots.delete(snapshot.id);
        log.error(`storage: snapshot "${snapshot.name}" of partner ${partner.id} was deleted: ${problem}`);
      }
    }
  }
}

/** Why a stored snapshot cannot be restored safely, or undefined. */
function* snapshotProblem(snapshot: SnapshotRecord): Generator<void, string | undefined> {
  const saved = Date.parse(snapshot.world?.clock?.now ?? '');
  if (!(saved >= EARLIEST_MS && saved < LATEST_CLOCK_MS)) return 'its clock reads outside 1970..9899';
  const checked = yield* checkWorldRowsInSteps(snapshot.world.tables, snapshot.partner_id);
  return checked.problems.length > 0 ? checked.problems.map(describe).join('; ') : undefined;
}

/** Where the checks of rows a database load brought in report, and the real time they use. */
export interface LoadChecks {
  log: RepairLog;
  realNow: () => number;
}

/**
 * Checks the partners a database load just brought in (all when `partnerIds` is absent), pausing
 * between steps (a takeover while serving).
 */
export function repairLoadedPartners(
  store: Store,
  partnerIds: readonly string[] | undefined,
  checks: LoadChecks,
): Promise<void> {
  return repairStoredDataPausing(store, { partnerIds, realNow: checks.realNow(), log: checks.log });
}
