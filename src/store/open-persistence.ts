import { JournalPersistence } from './journal/journal-persistence.js';
import type { RecoveryReport } from './journal/recovery.js';
import { memoryPersistence, type Persistence } from './persistence.js';
import { repairSequence } from './seq-repair.js';
import type { Store } from './store.js';
import { ROWS_CHECKED, repairStoredData } from './stored-world-repair.js';

export interface StorageOptions {
  /** `--data FILE`: the journal backend; in memory when absent. */
  dataFile?: string | undefined;
  /** Compact the journal once it holds this many bytes (and at least the snapshot's size). */
  journalLimitBytes?: number | undefined;
  log: { info(message: string): void; error(message: string, error?: unknown): void };
  /** Milliseconds on a monotonic clock, to report how long the restore took. */
  now?: () => number;
  /** Real time, epoch ms: a partner clock found out of range reads it again (see stored-world-repair). */
  realNow?: () => number;
}

/**
 * Opens the configured backend and restores the store from it, logging what was restored (and
 * any torn or damaged journal tail that was dropped).
 */
export async function openPersistence(store: Store, options: StorageOptions): Promise<Persistence> {
  if (!options.dataFile) return memoryPersistence;
  const now = options.now ?? (() => performance.now());
  const started = now();
  const { persistence, report } = await JournalPersistence.open(options.dataFile, store, {
    compactMinBytes: options.journalLimitBytes,
    onError: (message, error) => options.log.error(message, error),
  });
  for (const line of droppedLines(report)) options.log.error(line);
  // Rows an older version let in unchecked (a snapshot import) are checked once per data file;
  // the counter at every start (old journal entries still carry a counter that ran away).
  if (store.meta.rows_checked !== ROWS_CHECKED) {
    repairStoredData(store, { realNow: (options.realNow ?? Date.now)(), log: options.log });
    store.meta.rows_checked = ROWS_CHECKED;
  } else repairSequence(store);
  options.log.info(restoreLine(options.dataFile, report, now() - started));
  return persistence;
}

/** `restored 1,234 rows and 56 journal entries from data.json in 78 ms`. */
export function restoreLine(file: string, report: RecoveryReport, ms: number): string {
  const count = (n: number) => n.toLocaleString('en-US');
  const source = report.snapshot || report.entries > 0 ? file : `${file} (new)`;
  return `storage: restored ${count(report.rows)} rows and ${count(report.entries)} journal entries from ${source} in ${Math.round(ms)} ms`;
}

function droppedLines(report: RecoveryReport): string[] {
  return report.dropped.map(
    (d) =>
      `storage: dropped the last ${d.bytes} bytes of ${d.file} (${d.problem}): ` +
      'not loaded, kept in the .journal.dropped file beside it',
  );
}
