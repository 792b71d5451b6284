import type { ChangeSet, TableChanges } from '../change-set.js';

/**
 * Folds a later change set into an earlier one that could not be written, so a retried flush
 * writes both: per row, the later upsert or delete wins.
 */
export function mergeChangeSets(earlier: ChangeSet, later: ChangeSet): ChangeSet {
  const tables: Record<string, TableChanges> = {};
  for (const name of new Set([...Object.keys(earlier.tables), ...Object.keys(later.tables)])) {
    const rows = new Map<string, { id: string } | null>();
    for (const changes of [earlier.tables[name], later.tables[name]]) {
      if (!changes) continue;
      for (const id of changes.deletes) rows.set(id, null);
      for (const row of changes.upserts) rows.set(row.id, row);
    }
    const merged: TableChanges = { upserts: [], deletes: [] };
    for (const [id, row] of rows) {
      if (row) merged.upserts.push(row);
      else merged.deletes.push(id);
    }
    tables[name] = merged;
  }
  return { meta: later.meta, tables };
}
