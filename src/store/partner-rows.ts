import type { Store } from './store.js';

// A partner's rows across the store's tables: what a reset deletes, whether any is unwritten.

/**
 * What a reset keeps of a partner: the partner itself, its credentials (so the caller's token
 * keeps working), its request log (the history of what it sent, the reset included), its
 * snapshots (a test suite resets and restores between tests), its random stream positions (a
 * stream drawn again from the start would repeat ids) and the tombstones (not its rows).
 */
const KEPT_BY_RESET = new Set([
  'partners',
  'credentials',
  'requests',
  'snapshots',
  'random_counters',
  'partner_tombstones',
]);

/**
 * Deletes every row a partner owns except what a reset keeps (above), recording the deletes.
 * In the partner's size: a table finds the partner's rows by its partner index, not by a pass
 * over every partner's rows (a reset of an empty partner on an instance holding 100,000 rows
 * took 37 ms that way).
 */
export function deletePartnerData(store: Store, partnerId: string): number {
  let removed = 0;
  for (const name of store.tableNames()) {
    if (KEPT_BY_RESET.has(name)) continue;
    const table = store.table(name);
    if (!table) continue;
    removed += table.deletePartnerRows
      ? table.deletePartnerRows(partnerId)
      : table.deleteWhere((row) => (row as { partner_id?: string }).partner_id === partnerId);
  }
  return removed;
}

/**
 * Whether any row of the partner changed since the last change set was taken (written to a
 * backend or not yet): an idle partner leaves memory only once everything of it is written.
 */
export function partnerHasChanges(store: Store, partnerId: string): boolean {
  for (const name of store.tableNames()) {
    if (store.table(name)?.hasChangesOf(partnerId)) return true;
  }
  return false;
}
