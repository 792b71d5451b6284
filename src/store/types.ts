// Types that several files of the store share. This file imports nothing, so the store's rooms
// can all depend on it without an import circle (store ↔ change-set ↔ table ↔ indexes).

/** The store's own bookkeeping, persisted beside the tables. */
export interface StoreMeta {
  seq: number;
  /** Base64url HMAC key for access tokens; kept so tokens survive a restart. */
  signing_key: string;
  /**
   * Draws so far of the seeded random streams (`--seed`) that belong to no partner (the server's,
   * request ids), so a restart continues them. A partner's stream is a row of the store's
   * `randomCounters` (files written before keep theirs here, read on from there).
   */
  random_counters?: Record<string, number>;
  /**
   * Set once this version's checks of stored rows (`stored-world-repair.ts`) ran over the whole
   * data file: later starts skip them (every row written since was checked on its way in).
   */
  rows_checked?: number;
}

/** Everything the store persists, as written to `--data FILE`. */
export interface Snapshot {
  version: 1;
  meta: StoreMeta;
  tables: Record<string, unknown[]>;
}

/** The rows one table gained, changed or lost since the last flush (latest version of each). */
export interface TableChanges {
  upserts: { id: string }[];
  deletes: string[];
}

/** A secondary index kept in step with a table: told of every row added and removed. */
export interface TableIndex<T> {
  add(row: T): void;
  remove(row: T): void;
  /** Optional fast path for `replace`: swap in the new version (defaults to remove + add). */
  replace?(old: T, row: T): void;
  /** Optional fast path for adding many rows at once (restores; defaults to `add` each). */
  addAll?(rows: readonly T[]): void;
  /** Optional fast path for removing many rows at once (snapshot restores; defaults to `remove` each). */
  removeAll?(rows: readonly T[]): void;
  clear(): void;
}

/** A copy that shares nothing mutable (the random counters change on every seeded draw). */
export function copyMeta(meta: StoreMeta): StoreMeta {
  return { ...meta, ...(meta.random_counters && { random_counters: { ...meta.random_counters } }) };
}

export function bySeq(a: { seq: number }, b: { seq: number }): number {
  return a.seq - b.seq;
}

/** What the store asks of every table it persists (rows keyed by `id`, owned by a partner). */
export interface PersistedTable {
  readonly name: string;
  /** Whether changes are recorded for `takeChanges` (off in memory-only mode). */
  tracking: boolean;
  /**
   * Whether, while tracking, the version each changed row had at the last durable write is kept,
   * so `rollBack` can restore it (the journal turns this on). A table that cannot undo leaves
   * these three out: the request log keeps its entries when a write fails (they say what was
   * answered, refusals included).
   */
  undoing?: boolean;
  /** These changes (taken earlier) are durable now: their rows need no undo any more. */
  settle?(changes: TableChanges): void;
  /**
   * Puts back every row changed since the last durable write as it was then, forgetting the
   * changes; returns how many rows moved.
   */
  rollBack?(): number;
  readonly size: number;
  takeChanges(deleters?: Set<string>): TableChanges;
  forgetChanges(): void;
  apply(changes: { upserts: readonly { id: string }[]; deletes: readonly string[] }): void;
  dump(): { id: string }[];
  load(rows: readonly { id: string }[]): void;
  deleteWhere(predicate: (row: { id: string }) => boolean): number;
  /** Deletes the rows whose `partner_id` is `partnerId` (recorded), in the partner's size. */
  deletePartnerRows?(partnerId: string): number;
  /**
   * Drops a partner's rows from memory without recording deletes. `removal`: the partner is being
   * removed by a change not yet durable (see PartnerRemovals): with undo, the rows come back if it
   * fails.
   */
  evictPartner(partnerId: string, removal?: boolean): number;
  /** These partners' removal is durable: the undo of their rows is no longer needed. */
  settleRemoved?(partnerIds: ReadonlySet<string>): void;
  /** Whether a row of the partner was inserted or updated since the last `takeChanges`. */
  hasChangesOf(partnerId: string): boolean;
}
