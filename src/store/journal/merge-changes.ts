import { type ChangeSet, dropPurgedRows, type TableChanges } from '../change-set.js';

/**
 * Folds change sets, oldest first, into one: per row, the last upsert or delete wins. Replaying
 * the folded set gives the same world as replaying each in turn, touching each row once.
 */
export class ChangeFolder {
  private readonly tables = new Map<string, Map<string, { id: string } | null>>();
  private meta: ChangeSet['meta'] | null = null;
  private readonly purged = new Set<string>();
  private readonly deleters = new Set<string>();

  add(changes: ChangeSet): void {
    this.meta = changes.meta;
    for (const id of changes.deleters ?? []) this.deleters.add(id);
    if (changes.purged && changes.purged.length > 0) {
      // A removal applies to every row written before it; rows after it (its tombstones) stay.
      const now = new Set(changes.purged);
      for (const [name, rows] of this.tables) dropPurgedRows(name, rows, now);
      for (const id of now) this.purged.add(id);
    }
    for (const [name, table] of Object.entries(changes.tables)) {
      let rows = this.tables.get(name);
      if (!rows) {
        rows = new Map();
        this.tables.set(name, rows);
      }
      for (const id of table.deletes) rows.set(id, null);
      for (const row of table.upserts) rows.set(row.id, row);
    }
  }

  /** The folded change set, or null when nothing was added. */
  result(): ChangeSet | null {
    if (!this.meta) return null;
    const tables: Record<string, TableChanges> = {};
    for (const [name, rows] of this.tables) {
      const merged: TableChanges = { upserts: [], deletes: [] };
      for (const [id, row] of rows) {
        if (row) merged.upserts.push(row);
        else merged.deletes.push(id);
      }
      tables[name] = merged;
    }
    const folded: ChangeSet =
      this.purged.size === 0
        ? { meta: this.meta, tables }
        : { meta: this.meta, tables, purged: [...this.purged] };
    return this.deleters.size === 0 ? folded : { ...folded, deleters: [...this.deleters] };
  }
}

/** A later change set folded into an earlier one that could not be written (a retried flush). */
export function mergeChangeSets(earlier: ChangeSet, later: ChangeSet): ChangeSet {
  const folder = new ChangeFolder();
  folder.add(earlier);
  folder.add(later);
  return folder.result() as ChangeSet;
}
