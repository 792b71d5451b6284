import type { StoreMeta, TableChanges } from './types.js';

export type { TableChanges } from './types.js';

/**
 * What changed in the store since the last flush: per table, the current version of every row
 * inserted or updated, and the ids of rows deleted. Persistence backends write only this, so the
 * cost of a flush follows the size of the change, not the size of the store.
 */
export interface ChangeSet {
  meta: StoreMeta;
  tables: Record<string, TableChanges>;
}

/** Whether a change set carries any row (meta alone moves with every row change anyway). */
export function isEmptyChangeSet(changes: ChangeSet): boolean {
  for (const name in changes.tables) {
    const table = changes.tables[name];
    if (table && (table.upserts.length > 0 || table.deletes.length > 0)) return false;
  }
  return true;
}

/** Counts the rows a change set touches (for logs and restore reports). */
export function changeSetSize(changes: ChangeSet): number {
  let n = 0;
  for (const name in changes.tables) {
    const table = changes.tables[name];
    if (table) n += table.upserts.length + table.deletes.length;
  }
  return n;
}
