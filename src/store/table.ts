import { PartnerGroups, rowPartnerId } from './partner-groups.js';
import type { PersistedTable, TableChanges, TableIndex } from './types.js';

export { rowPartnerId } from './partner-groups.js';
export type { PersistedTable, TableIndex } from './types.js';

/**
 * An in-memory table of immutable rows keyed by `id`. Rows are replaced, never mutated, so an
 * index can always remove the old version of a row before adding the new one.
 */
export class Table<T extends { id: string }> implements PersistedTable {
  private readonly rows = new Map<string, T>();
  private readonly byPartner = new PartnerGroups<T>();
  private readonly indexes: TableIndex<T>[] = [];
  /** Ids touched since the last `takeChanges()`: true = the row exists now, else the deleted row's partner. */
  private readonly dirty = new Map<string, true | string>();
  /** Ids touched since the last durable write, with the (immutable) version durable then, if any. */
  private readonly undo = new Map<string, T | undefined>();
  /** Off in memory-only mode, so nothing accumulates that no backend will ever take. */
  tracking = false;
  undoing = false;

  /**
   * `upgrade` reads a row that comes from outside the running process (a journal, a database, a
   * snapshot) in the current shape, when a record type changed since such rows were written.
   */
  constructor(
    readonly name: string,
    private readonly upgrade?: (row: T) => T,
  ) {}

  /** Registers an index and feeds it the rows already present; returns it for typed use. */
  index<I extends TableIndex<T>>(index: I): I {
    this.indexes.push(index);
    for (const row of this.rows.values()) index.add(row);
    return index;
  }

  get size(): number {
    return this.rows.size;
  }

  get(id: string): T | undefined {
    return this.rows.get(id);
  }

  values(): IterableIterator<T> {
    return this.rows.values();
  }

  insert(row: T): T {
    if (this.rows.has(row.id)) throw new Error(`${this.name}: duplicate id ${row.id}`);
    this.rows.set(row.id, row);
    this.byPartner.add(row);
    if (this.tracking) this.touch(row.id, undefined, true);
    for (const index of this.indexes) index.add(row);
    return row;
  }

  /** How many rows the partner holds here (one map lookup). */
  partnerCount(partnerId: string): number {
    return this.byPartner.count(partnerId);
  }

  /** The partner's rows, in insertion order (a copy). */
  partnerRows(partnerId: string): T[] {
    return this.byPartner.rows(partnerId);
  }

  /** Replaces the stored row with the same id (which must exist) and returns the new row. */
  replace(row: T): T {
    const old = this.rows.get(row.id);
    if (!old) throw new Error(`${this.name}: no row ${row.id} to replace`);
    this.rows.set(row.id, row);
    this.byPartner.replace(old, row);
    if (this.tracking) this.touch(row.id, old, true);
    for (const index of this.indexes) {
      if (index.replace) index.replace(old, row);
      else {
        index.remove(old);
        index.add(row);
      }
    }
    return row;
  }

  /** Applies a change to the row with this id and stores the result. */
  update(id: string, change: (row: T) => T): T {
    const old = this.rows.get(id);
    if (!old) throw new Error(`${this.name}: no row ${id} to update`);
    return this.replace(change(old));
  }

  delete(id: string): T | undefined {
    const old = this.rows.get(id);
    if (!old) return undefined;
    for (const index of this.indexes) index.remove(old);
    this.rows.delete(id);
    this.byPartner.remove(old);
    if (this.tracking) this.touch(id, old, false);
    return old;
  }

  /** Removes every row for which `predicate` holds (of `rows`: by default a pass over the table). */
  deleteWhere(predicate: (row: T) => boolean, rows: Iterable<T> = [...this.rows.values()]): number {
    let removed = 0;
    for (const row of rows) if (predicate(row) && this.delete(row.id)) removed++;
    return removed;
  }

  /** Removes the rows whose `partner_id` is `partnerId`, in the partner's size (not a table pass). */
  deletePartnerRows(partnerId: string): number {
    return this.deleteWhere(
      (row) => (row as { partner_id?: string }).partner_id === partnerId,
      this.byPartner.rows(partnerId),
    );
  }

  /**
   * Drops the rows matching `predicate` from memory as if they had never been loaded: no delete
   * is recorded and any change to them not yet taken is forgotten (their owner moved elsewhere).
   */
  evictWhere(predicate: (row: T) => boolean): number {
    let evicted = 0;
    for (const row of [...this.rows.values()]) {
      if (!predicate(row)) continue;
      for (const index of this.indexes) index.remove(row);
      this.rows.delete(row.id);
      this.byPartner.remove(row);
      this.dirty.delete(row.id);
      this.undo.delete(row.id);
      evicted++;
    }
    return evicted;
  }

  hasChangesOf(partnerId: string): boolean {
    if (this.dirty.size === 0) return false;
    for (const id of this.byPartner.ids(partnerId)) if (this.dirty.has(id)) return true;
    return false;
  }

  /**
   * Drops the rows of a partner (`partner_id`, or the id of the partner row itself) as
   * `evictWhere` does, in the partner's size: the indexes remove them in bulk.
   */
  evictPartner(partnerId: string, removal = false): number {
    const removed = this.byPartner.take(partnerId);
    if (removed.length === 0) return 0;
    for (const row of removed) {
      this.rows.delete(row.id);
      this.dirty.delete(row.id);
      // A removal keeps each row's durable version for a rollback (a row not durable yet has
      // none: gone either way); an eviction keeps nothing.
      if (!removal || !this.undoing) this.undo.delete(row.id);
      else if (!this.undo.has(row.id)) this.undo.set(row.id, row);
      else if (this.undo.get(row.id) === undefined) this.undo.delete(row.id);
    }
    for (const index of this.indexes) {
      if (index.removeAll) index.removeAll(removed);
      else for (const row of removed) index.remove(row);
    }
    return removed.length;
  }

  clear(): void {
    if (this.tracking) for (const [id, row] of this.rows) this.touch(id, row, false);
    this.rows.clear();
    this.byPartner.clear();
    for (const index of this.indexes) index.clear();
  }

  /**
   * The rows changed since the last call (current versions) and the ids deleted, then forgets
   * them; the partners whose rows were deleted go into `deleters`. Rows are immutable, so handing
   * out the stored objects is safe.
   */
  takeChanges(deleters?: Set<string>): TableChanges {
    const upserts: T[] = [];
    const deletes: string[] = [];
    for (const [id, mark] of this.dirty) {
      const row = mark === true ? this.rows.get(id) : undefined;
      if (row) upserts.push(row);
      else deletes.push(id);
      if (!row && mark !== true && mark) deleters?.add(mark);
    }
    this.dirty.clear();
    return { upserts, deletes };
  }

  /** Forgets pending changes (after a restore: what was loaded is already durable). */
  forgetChanges(): void {
    this.dirty.clear();
    this.undo.clear();
  }

  settle(changes: TableChanges): void {
    if (this.undo.size === 0) return;
    for (const row of changes.upserts) this.settleRow(row.id, row as T);
    for (const id of changes.deletes) this.settleRow(id, undefined);
  }

  rollBack(): number {
    const moved = this.undo.size;
    const tracking = this.tracking;
    this.tracking = false;
    try {
      for (const [id, before] of this.undo) {
        const now = this.rows.get(id);
        if (before === undefined) {
          if (now) this.delete(id);
        } else if (!now) this.insert(before);
        else if (now !== before) this.replace(before);
      }
    } finally {
      this.tracking = tracking;
    }
    this.undo.clear();
    this.dirty.clear();
    return moved;
  }

  /** Applies a change set's rows for this table, as a replay (inserts or replaces, deletes). */
  apply(changes: { upserts: readonly T[]; deletes: readonly string[] }): void {
    this.deleteAll(changes.deletes);
    const added: T[] = [];
    const upserts = this.upgrade ? changes.upserts.map(this.upgrade) : changes.upserts;
    for (const row of upserts) {
      if (this.rows.has(row.id)) this.replace(row);
      else added.push(row);
    }
    this.insertAll(added);
  }

  /** Deletes many rows, letting each index remove them in bulk (a snapshot restore swaps a whole world). */
  private deleteAll(ids: readonly string[]): void {
    if (ids.length < 16) {
      for (const id of ids) this.delete(id);
      return;
    }
    const removed: T[] = [];
    for (const id of ids) {
      const old = this.rows.get(id);
      if (!old) continue;
      removed.push(old);
      this.rows.delete(id);
      this.byPartner.remove(old);
      if (this.tracking) this.touch(id, old, false);
    }
    for (const index of this.indexes) {
      if (index.removeAll) index.removeAll(removed);
      else for (const row of removed) index.remove(row);
    }
  }

  /** Inserts many new rows, letting each index add them in bulk (restores, replays). */
  private insertAll(rows: readonly T[]): void {
    for (const row of rows) {
      if (this.rows.has(row.id)) throw new Error(`${this.name}: duplicate id ${row.id}`);
      this.rows.set(row.id, row);
      this.byPartner.add(row);
      if (this.tracking) this.touch(row.id, undefined, true);
    }
    for (const index of this.indexes) {
      if (index.addAll) index.addAll(rows);
      else for (const row of rows) index.add(row);
    }
  }

  dump(): T[] {
    return [...this.rows.values()];
  }

  load(rows: readonly T[]): void {
    this.clear();
    this.insertAll(this.upgrade ? rows.map(this.upgrade) : rows);
    this.forgetChanges();
  }

  /** Records a change of a row; `old` is its version before this change (undefined: none). */
  private touch(id: string, old: T | undefined, exists: boolean): void {
    this.dirty.set(id, exists || (old ? rowPartnerId(old) : ''));
    if (this.undoing && !this.undo.has(id)) this.undo.set(id, old);
  }

  settleRemoved(partnerIds: ReadonlySet<string>): void {
    for (const [id, durable] of this.undo) {
      if (durable !== undefined && partnerIds.has(rowPartnerId(durable))) this.undo.delete(id);
    }
  }

  /** `durable` (undefined: no row) was just written for this id. */
  private settleRow(id: string, durable: T | undefined): void {
    // Changed again since it was taken: undoing that later change goes back to what was written.
    if (this.dirty.has(id)) this.undo.set(id, durable);
    else this.undo.delete(id);
  }
}
