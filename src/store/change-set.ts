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
  /**
   * Partners removed for good (deleted, expired) since the last flush: every row they had, in
   * every table but `partner_tombstones`, is gone. Applied before `tables`, whose rows all came
   * after the removal (a partner's tombstones, written in the same change).
   */
  purged?: string[];
  /**
   * The partners whose rows `tables` deletes (a delete carries only an id). Never persisted: a
   * backend that rolls a failed write back by partner drops these too.
   */
  deleters?: string[];
}

/** The table that keeps what stays of gone partners: a purge never removes its rows. */
export const TOMBSTONE_TABLE = 'partner_tombstones';

/** Whether a change set carries any row (meta alone moves with every row change anyway). */
export function isEmptyChangeSet(changes: ChangeSet): boolean {
  if (changes.purged && changes.purged.length > 0) return false;
  for (const name in changes.tables) {
    const table = changes.tables[name];
    if (table && (table.upserts.length > 0 || table.deletes.length > 0)) return false;
  }
  return true;
}

/** Counts the rows a change set touches (for logs and restore reports). */
export function changeSetSize(changes: ChangeSet): number {
  let n = changes.purged?.length ?? 0;
  for (const name in changes.tables) {
    const table = changes.tables[name];
    if (table) n += table.upserts.length + table.deletes.length;
  }
  return n;
}

/**
 * Folds a later purge into rows gathered earlier: the purged partners' rows (but their tombstones)
 * leave `rows` (id → row, or null for a delete), so a replay or a retried write never brings back a
 * row of a partner removed after it was written.
 */
export function dropPurgedRows(
  name: string,
  rows: Map<string, { id: string } | null>,
  purged: ReadonlySet<string>,
): void {
  if (purged.size === 0 || name === TOMBSTONE_TABLE) return;
  for (const [id, row] of rows) {
    const partner = row ? ((row as { partner_id?: string }).partner_id ?? row.id) : undefined;
    if (partner !== undefined && purged.has(partner)) rows.delete(id);
  }
}
