import { type FileHandle, open, rename, unlink } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Low } from 'lowdb';
import { isEmptyChangeSet } from '../change-set.js';
import type { Persistence } from '../persistence.js';
import { StorageHealth } from '../storage-health.js';
import type { Store } from '../store.js';
import { copyMeta } from '../types.js';
import { isMissing, type JournalPaths, journalPaths, syncDirectoryOf, writeDurably } from './files.js';
import { encodeEntry } from './line-format.js';
import { type RecoveryReport, recover } from './recovery.js';
import { DEFAULT_CHUNK_BYTES, type JournalSnapshot, SnapshotFile } from './snapshot-file.js';

/** The moments of a compaction, in order (tests copy the files at each to simulate a crash). */
export type CompactionStep = 'rotated' | 'captured' | 'snapshot-replaced' | 'done';

export interface JournalOptions {
  /** Compact once the journal holds at least this many bytes… (default 16 MiB) */
  compactMinBytes?: number;
  /** …and at least this multiple of the snapshot's size, so compaction cost stays amortized. */
  compactRatio?: number;
  /** Bytes of snapshot JSON built between two writes of a compaction. */
  chunkBytes?: number;
  /** Where compaction failures go (they never fail a flush). */
  onError?: (message: string, error: unknown) => void;
  /** Called at each step of a compaction. */
  onCompactionStep?: (step: CompactionStep) => void;
  /**
   * Writes one line to the journal and makes it durable (default: every byte, then fdatasync).
   * Tests make it fail as a full disk would.
   */
  writeLine?: (handle: FileHandle, line: Buffer) => Promise<void>;
  /** How often a journal that cannot be written is tried again (default 1 s). */
  retryMs?: number;
}

export const DEFAULT_COMPACT_MIN_BYTES = 16 * 1024 * 1024;

/**
 * The embedded backend for `--data FILE`: each flush appends the store's change set as one
 * checksummed line to FILE.journal and fsyncs it before the flush resolves (group commit:
 * flushes asked for while one is being written share the next one). When the journal outgrows
 * the snapshot, a background compaction folds it into FILE (see `compact()`).
 *
 * A line that cannot be written (disk full, I/O error, permissions) is cut off again, every
 * change that was not durable is rolled back in memory (so what the sandbox shows is what a
 * restart loads), and the journal refuses writes (`health`) until a small probe line can be
 * written, tried every second.
 */
export class JournalPersistence implements Persistence {
  readonly health: StorageHealth;
  private readonly paths: JournalPaths;
  private readonly snapshotFile: SnapshotFile;
  private readonly writeLine: (handle: FileHandle, line: Buffer) => Promise<void>;
  /** Every file operation that must not interleave with an append runs on this chain. */
  private tail: Promise<unknown> = Promise.resolve();
  private pending: Promise<void> | null = null;
  /** Set when a failed line could not be cut off again: nothing may follow it. */
  private broken: Error | null = null;
  private closed = false;
  private compaction: Promise<void> | null = null;
  /** After a failed compaction, the next waits until the journal has grown this far. */
  private compactAgainAt = 0;
  /** How many compactions have completed (benchmarks and tests read it). */
  compactions = 0;
  onWrite: ((seconds: number) => void) | undefined;

  private constructor(
    file: string,
    private readonly store: Store,
    private readonly options: JournalOptions,
    private handle: FileHandle,
    private lastEntry: number,
    /** Bytes in the active segment. */
    public journalBytes: number,
    /** Set while a compaction's segment (FILE.journal.compacting) is on disk. */
    private compactingThrough: number | null,
    snapshotFile: SnapshotFile,
  ) {
    this.paths = journalPaths(file);
    this.snapshotFile = snapshotFile;
    this.writeLine = options.writeLine ?? writeDurably;
    this.health = new StorageHealth({ probe: () => this.probe(), retryMs: options.retryMs });
  }

  /**
   * Restores `store` from FILE and its journal (cutting off a torn tail), opens the journal for
   * appending and, if a crash interrupted a compaction, finishes it in the background.
   */
  static async open(
    file: string,
    store: Store,
    options: JournalOptions = {},
  ): Promise<{ persistence: JournalPersistence; report: RecoveryReport }> {
    const paths = journalPaths(file);
    const snapshotFile = new SnapshotFile(
      paths.snapshot,
      paths.snapshotTemp,
      options.chunkBytes ?? DEFAULT_CHUNK_BYTES,
    );
    const state = await recover(paths, store, snapshotFile);
    store.trackChanges({ undo: true });
    const handle = await open(paths.journal, 'a');
    await syncDirectoryOf(paths.journal);
    const persistence = new JournalPersistence(
      file,
      store,
      options,
      handle,
      state.lastEntry,
      state.journalBytes,
      state.compactingThrough,
      snapshotFile,
    );
    if (state.compactingThrough !== null) persistence.compactInBackground();
    return { persistence, report: state.report };
  }

  /** Size of the snapshot last read or written. */
  get snapshotBytes(): number {
    return this.snapshotFile.bytes;
  }

  flush(): Promise<void> {
    if (this.pending) return this.pending;
    this.pending = this.serially(() => {
      // From here on, later changes need the next write: this one takes the change set now.
      this.pending = null;
      return this.append();
    });
    return this.pending;
  }

  /**
   * Writes what is pending, waits for a running compaction, and closes the journal; rejects when
   * that last write failed (its changes were not saved).
   */
  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.flush();
    } finally {
      this.closed = true;
      this.health.stop();
      await this.compaction?.catch(noop); // its failure was reported; the files stay consistent
      await this.serially(async () => {
        this.broken ??= new Error('the journal is closed');
        await this.handle.close();
      });
    }
  }

  /**
   * Folds the journal into a new snapshot. The active segment is renamed FILE.journal.compacting
   * and a fresh FILE.journal takes new change sets; the store is captured table by table
   * (yielding between tables), every captured row is made durable in the journal, and the
   * snapshot is written in chunks and renamed over FILE; then the old segment is deleted.
   * A crash at any step leaves files that restore the same world.
   */
  compact(): Promise<void> {
    return this.startCompaction();
  }

  /** Starts a compaction nobody waits for: a failure is reported, and retried at the next threshold. */
  private compactInBackground(): void {
    this.startCompaction().catch((error: unknown) => {
      // Not at every flush (a disk too full for the snapshot would log at every request).
      this.compactAgainAt = this.journalBytes + (this.options.compactMinBytes ?? DEFAULT_COMPACT_MIN_BYTES);
      (this.options.onError ?? noop)('journal compaction failed (retried once the journal has grown)', error);
    });
  }

  private startCompaction(): Promise<void> {
    this.compaction ??= this.runCompaction()
      .then(() => {
        this.compactions++;
      })
      .finally(() => {
        this.compaction = null;
      });
    return this.compaction;
  }

  private async runCompaction(): Promise<void> {
    const step = this.options.onCompactionStep ?? (() => {});
    if (this.compactingThrough === null) {
      await this.serially(async () => {
        await this.handle.close();
        await rename(this.paths.journal, this.paths.compacting);
        this.handle = await open(this.paths.journal, 'a');
        await syncDirectoryOf(this.paths.journal);
        this.compactingThrough = this.lastEntry;
        this.journalBytes = 0;
      });
    }
    const through = this.compactingThrough as number;
    step('rotated');
    const tables: Record<string, unknown[]> = {};
    for (const name of this.store.tableNames()) {
      // Rows are immutable, so the arrays keep this moment's versions while requests go on.
      tables[name] = this.store.dumpTable(name);
      await nextTurn();
    }
    const meta = { ...this.store.meta };
    // Rows captured after the rotation may be newer than the journal on disk: make them durable
    // first, so the snapshot never holds a change that the journal could still lose.
    await this.flush();
    step('captured');
    const db = new Low<JournalSnapshot>(this.snapshotFile, {
      version: 1,
      meta,
      journal: { through },
      tables,
    });
    await db.write();
    step('snapshot-replaced');
    await unlink(this.paths.compacting).catch((error: unknown) => {
      if (!isMissing(error)) throw error;
    });
    await syncDirectoryOf(this.paths.compacting);
    this.compactingThrough = null;
    step('done');
  }

  private serially<T>(task: () => Promise<T>): Promise<T> {
    const run = this.tail.then(noop, noop).then(task);
    this.tail = run;
    return run;
  }

  private async append(): Promise<void> {
    const changes = this.store.takeChangeSet();
    // Nothing to write is not a failure, even once closed: a background flush of the request log
    // that fires after the shutdown's last flush has nothing left to save.
    if (isEmptyChangeSet(changes)) return;
    if (this.closed || !this.health.writable) {
      // Writes are refused until a probe succeeds: what is pending (a job that ran meanwhile, a
      // request that began before the failure) is dropped, as the failed write's changes were.
      this.rollBack();
      throw this.closed ? new Error('the journal is closed') : this.health.refusal();
    }
    const n = this.lastEntry + 1;
    let line: Buffer | undefined;
    const started = performance.now();
    try {
      line = encodeEntry({ n, meta: changes.meta, tables: changes.tables, purged: changes.purged });
      await this.writeCut(line);
      this.onWrite?.((performance.now() - started) / 1000);
    } catch (error) {
      this.rollBack();
      // No line: a row JSON cannot hold, which can never be saved (this data's fault, not the disk's).
      throw line === undefined ? error : this.health.failed(error);
    }
    this.store.settle(changes);
    this.lastEntry = n;
    this.journalBytes += (line as Buffer).length;
    if (this.shouldCompact()) this.compactInBackground();
  }

  /** Writes a line; a failure cuts off whatever part of it reached the file. */
  private async writeCut(line: Buffer): Promise<void> {
    if (this.broken) throw this.broken;
    try {
      await this.writeLine(this.handle, line);
    } catch (error) {
      // Cut off whatever part of the line reached the file, so the next append does not follow it.
      await this.handle.truncate(this.journalBytes).catch((truncateError: unknown) => {
        const why = `the journal cannot be written or repaired (${String(truncateError)})`;
        this.broken = new Error(`${why}; restart the sandbox`);
      });
      throw error;
    }
  }

  /** Every change not yet durable goes back to what the journal holds. */
  private rollBack(): void {
    this.store.rollBack();
    this.health.rolledBack();
  }

  /** The health's probe: one line with no change (only the store's counters) can be written. */
  private probe(): Promise<void> {
    return this.serially(async () => {
      if (this.closed) throw new Error('the journal is closed');
      const n = this.lastEntry + 1;
      const line = encodeEntry({ n, meta: copyMeta(this.store.meta), tables: {} });
      await this.writeCut(line);
      this.lastEntry = n;
      this.journalBytes += line.length;
    });
  }

  private shouldCompact(): boolean {
    if (this.closed || this.compaction || this.journalBytes < this.compactAgainAt) return false;
    const min = this.options.compactMinBytes ?? DEFAULT_COMPACT_MIN_BYTES;
    return this.journalBytes >= Math.max(min, this.snapshotBytes * (this.options.compactRatio ?? 1));
  }
}

function noop(): void {}
