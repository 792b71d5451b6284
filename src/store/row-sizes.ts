import type { TableIndex } from './types.js';

/**
 * JSON size (UTF-8 bytes, plus one for the comma that follows it in a list) of each row object,
 * measured once: rows are immutable (tables replace, never mutate), so the size never changes.
 * A WeakMap, so a row nobody holds any more takes its entry with it.
 */
const rowBytes = new WeakMap<object, number>();

/** The row's JSON size, measured now unless it was measured before. */
export function rowJsonBytes(row: object): number {
  let size = rowBytes.get(row);
  if (size === undefined) {
    size = Buffer.byteLength(JSON.stringify(row)) + 1;
    rowBytes.set(row, size);
  }
  return size;
}

/** Whether the row's size is known already (tests, benchmarks). */
export function isRowMeasured(row: object): boolean {
  return rowBytes.has(row);
}

/** How much JSON one drain measures before it lets the event loop go on (0.3 to 0.6 ms of CPU, measured). */
export const DRAIN_SLICE_BYTES = 32 * 1024;
/** The most rows waiting to be measured; rows past it are measured by the save that needs them. */
export const MAX_PENDING_ROWS = 50_000;

/** Where a queued row was written: the drain asks whether it is still the current version. */
export interface RowHolder {
  get(id: string): object | undefined;
}

export interface RowSizerStats {
  /** Rows waiting for the next drain. */
  pending: number;
  /** Rows measured by drains so far, and their JSON bytes. */
  measuredRows: number;
  measuredBytes: number;
  /** Rows not queued because the queue was full. */
  dropped: number;
}

/**
 * Measures the JSON size of rows written to the snapshot tables while the server has nothing else
 * to do, so that saving a snapshot finds every size known and costs a lookup per row instead of
 * serialising megabytes (a first save of a 1,000-customer partner would otherwise serialise 7 MB).
 *
 * It is an index of each snapshot table (`indexFor`): every row added or replaced waits in its
 * table's queue, keyed by id, so a row replaced before the drain waits as its latest version only
 * (a queue that waits through a load never holds versions nobody else holds). A drain scheduled
 * through `defer` (the composition root passes `idleTurns`: a turn that follows spare time)
 * measures up to `DRAIN_SLICE_BYTES` of them per turn. Each row is measured once in its life,
 * whether here or by a save that comes first, and only while its table still holds it (a
 * deleted row stops waiting). At most `MAX_PENDING_ROWS` rows wait, for at most the turns it takes to
 * drain them.
 */
export class IdleRowSizer {
  /** Per table, the rows waiting, by id, in the order they first waited. */
  private readonly queues = new Map<RowHolder, Map<string, object>>();
  private pending = 0;
  private scheduled = false;
  private readonly counts = { measuredRows: 0, measuredBytes: 0, dropped: 0 };
  private waiters: (() => void)[] = [];

  constructor(
    private readonly defer: (drain: () => void) => void,
    private readonly maxPending = MAX_PENDING_ROWS,
  ) {}

  /** The index to register on `table`: it queues every row the table gains or replaces. */
  indexFor(table: RowHolder): TableIndex<{ id: string }> {
    const waiting = new Map<string, object>();
    this.queues.set(table, waiting);
    const queue = (row: { id: string }) => this.enqueue(waiting, row);
    // A row deleted before the drain stops waiting: the queue keeps no row its table let go.
    const forget = (row: { id: string }) => {
      if (waiting.get(row.id) === row) {
        waiting.delete(row.id);
        this.pending--;
      }
    };
    return {
      add: queue,
      replace: (_old, row) => queue(row),
      addAll: (rows) => {
        for (const row of rows) queue(row);
      },
      remove: forget,
      removeAll: (rows) => {
        for (const row of rows) forget(row);
      },
      clear: () => {
        this.pending -= waiting.size;
        waiting.clear();
      },
    };
  }

  private enqueue(waiting: Map<string, object>, row: { id: string }): void {
    if (waiting.has(row.id)) waiting.set(row.id, row);
    else if (this.pending >= this.maxPending) {
      this.counts.dropped++;
      return;
    } else {
      waiting.set(row.id, row);
      this.pending++;
    }
    if (!this.scheduled) {
      this.scheduled = true;
      this.defer(this.drain);
    }
  }

  /** Resolves once every queued row is measured (at once when none waits): tests and benches. */
  whenDrained(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  stats(): RowSizerStats {
    return { pending: this.pending, ...this.counts };
  }

  /** Measures queued rows until a slice's worth of JSON is done, then yields to the event loop. */
  readonly drain = (): void => {
    this.scheduled = false;
    let budget = DRAIN_SLICE_BYTES;
    for (const [owner, waiting] of this.queues) {
      for (const [id, row] of waiting) {
        if (budget <= 0) break;
        waiting.delete(id);
        this.pending--;
        // A row deleted since, or measured by a save first: a lookup, not a serialisation.
        if (rowBytes.has(row) || owner.get(id) !== row) {
          budget -= 64; // many fit in a slice, not unboundedly many
          continue;
        }
        let size: number;
        try {
          size = rowJsonBytes(row);
        } catch {
          // A row JSON cannot hold (nested too deep): the save that needs it refuses it; a drain
          // runs outside any request and must not end the process.
          budget -= 64;
          continue;
        }
        this.counts.measuredRows++;
        this.counts.measuredBytes += size;
        budget -= size;
      }
      if (budget <= 0) break;
    }
    if (this.pending === 0) {
      const waiters = this.waiters;
      this.waiters = [];
      for (const resolve of waiters) resolve();
      return;
    }
    this.scheduled = true;
    this.defer(this.drain);
  };
}
