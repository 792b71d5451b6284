import { appendFile, open } from 'node:fs/promises';
import type { Store } from '../store.js';
import { type JournalPaths, readIfExists } from './files.js';
import { scanEntries } from './line-format.js';
import { ChangeFolder } from './merge-changes.js';
import type { SnapshotFile } from './snapshot-file.js';

/** Bytes recovery set aside because they were not a complete, verified continuation. */
export interface DroppedBytes {
  file: string;
  offset: number;
  bytes: number;
  problem: string;
}

/** What a start found on disk and restored. */
export interface RecoveryReport {
  /** Whether a snapshot (or a wave-1 data file) was read. */
  snapshot: boolean;
  /** Journal entries replayed on top of the snapshot. */
  entries: number;
  /** Rows in the store once restored. */
  rows: number;
  /** Damaged or torn tails, moved to FILE.journal.dropped; empty when every byte was intact. */
  dropped: DroppedBytes[];
}

export interface RecoveredState {
  report: RecoveryReport;
  /** Number of the last entry restored: the next one written is this + 1. */
  lastEntry: number;
  /** Size of the active segment after any torn tail was cut off. */
  journalBytes: number;
  /**
   * Set when a compaction was interrupted (its segment is still on disk): the number of that
   * segment's last entry, which the snapshot a new compaction writes will contain.
   */
  compactingThrough: number | null;
}

/**
 * Restores the store from the snapshot and then the journal segments (the one an interrupted
 * compaction left, then the active one), entry by entry in number order. Replay stops at the
 * first entry that is damaged, cut short or out of sequence: it and everything after it are
 * copied to FILE.journal.dropped, cut from the segments, and reported, so the store never holds
 * a half-written change and the next append never follows garbage.
 */
export async function recover(
  paths: JournalPaths,
  store: Store,
  snapshotFile: SnapshotFile,
): Promise<RecoveredState> {
  // The segments are read from disk while the snapshot is parsed (reading happens off the main thread).
  const segments = [paths.compacting, paths.journal].map((path) => ({ path, read: readIfExists(path) }));
  for (const segment of segments) segment.read.catch(() => {}); // awaited below; never unhandled meanwhile
  const snapshot = await snapshotFile.read();
  if (snapshot) store.restore(snapshot);
  await snapshotFile.removeLeftover();
  const through = snapshot?.journal?.through ?? 0;

  let previous: number | null = null;
  let lastEntry = through;
  let maxSeq = store.meta.seq;
  let entries = 0;
  let damage: string | null = null;
  let journalBytes = 0;
  let compactingThrough: number | null = null;
  const dropped: DroppedBytes[] = [];
  // Entries are checked one by one but applied as one folded change set: each row once.
  const folder = new ChangeFolder();

  for (const { path, read } of segments) {
    const bytes = await read;
    if (bytes === null) continue;
    let keep: number;
    let problem: string | null;
    if (damage) {
      keep = 0;
      problem = `follows ${damage}`;
    } else {
      const scan = scanEntries(bytes);
      keep = scan.validBytes;
      problem = scan.problem;
      for (const { entry, offset } of scan.entries) {
        const outOfSequence =
          (previous !== null && entry.n !== previous + 1) || (entry.n > through && entry.n !== lastEntry + 1);
        if (outOfSequence) {
          keep = offset;
          problem = `entry ${entry.n} where ${previous === null ? lastEntry + 1 : previous + 1} was expected, at byte ${offset}`;
          break;
        }
        previous = entry.n;
        if (entry.n <= through) continue; // already in the snapshot (a compaction ended just before)
        folder.add(entry);
        maxSeq = Math.max(maxSeq, entry.meta.seq);
        lastEntry = entry.n;
        entries++;
      }
    }
    if (keep < bytes.length) {
      const reason = problem ?? 'unreadable bytes';
      dropped.push({ file: path, offset: keep, bytes: bytes.length - keep, problem: reason });
      await setAside(paths.dropped, path, bytes.subarray(keep), keep, reason);
      await truncateFile(path, keep);
      damage ??= `a damaged entry in ${path}`;
    }
    if (path === paths.compacting) compactingThrough = Math.max(through, previous ?? 0);
    else journalBytes = keep;
  }
  const replay = folder.result();
  if (replay) store.applyChangeSet(replay);
  // Counters only grow: a later entry can never hand out a sequence number already used.
  store.meta.seq = Math.max(store.meta.seq, maxSeq);
  return {
    report: { snapshot: snapshot !== null, entries, rows: store.rowCount(), dropped },
    lastEntry,
    journalBytes,
    compactingThrough,
  };
}

async function setAside(droppedPath: string, from: string, bytes: Buffer, offset: number, problem: string) {
  const header = `# ${bytes.length} bytes dropped from ${from} at byte ${offset}: ${problem}\n`;
  await appendFile(droppedPath, Buffer.concat([Buffer.from(header), bytes, Buffer.from('\n')]));
}

async function truncateFile(path: string, length: number): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.truncate(length);
    await handle.sync();
  } finally {
    await handle.close();
  }
}
