import { SEQ_CEILING } from './record-rules.js';
import { IdleRowSizer, rowJsonBytes } from './row-sizes.js';
import type { WorldRow, WorldTables } from './snapshot-records.js';
import type { Store } from './store.js';
import { Table } from './table.js';

/**
 * The store tables that are NOT part of a partner's world in a snapshot, and why. This is the one
 * place that decides: every other persisted table is saved and restored whole for the partner.
 * A new table that holds test-harness configuration (API fault rules, ...) belongs here;
 * `test/e2e/snapshots.test.ts` lists the tables a snapshot holds, so a new table fails it until it is
 * placed on one side or the other.
 */
export const NOT_IN_SNAPSHOTS: Readonly<Record<string, string>> = {
  partners: "the partner row itself: its clock is saved on its own, its name and creator don't change",
  credentials: 'credentials: a restore never revokes the token that asked for it',
  requests: "the request inspector's log: the history of what the partner sent, restores included",
  snapshots: 'snapshots do not hold snapshots',
  random_counters:
    "the partner's random-stream position is saved on its own (`random_draws`), and only under --seed",
  fault_rules:
    'API-side fault rules are test-harness configuration: a restore must not bring back a fault a test cleared',
  partner_tombstones: "what stays of gone partners: the sandbox's, not a partner's",
};

export type { WorldRow, WorldTables } from './snapshot-records.js';

/** The tables a snapshot holds, in the store's restore order. */
export function snapshotTableNames(store: Store): string[] {
  return store.tableNames().filter((name) => !(name in NOT_IN_SNAPSHOTS));
}

type AnyTable = Table<WorldRow>;

function tableOf(store: Store, name: string): AnyTable {
  const table = store.table(name);
  if (!(table instanceof Table)) throw new Error(`snapshot table ${name} is not a row table`);
  return table as AnyTable;
}

/** The partner's rows of one row table (the table's own per-partner group: its size, not the table's). */
export function partnerRows(store: Store, name: string, partnerId: string): readonly WorldRow[] {
  return tableOf(store, name).partnerRows(partnerId);
}

/**
 * The partner's rows of every snapshot table. Rows are immutable (tables replace, never mutate),
 * so the arrays hold the stored objects themselves: saving copies references, not data.
 */
export function captureWorldTables(store: Store, partnerId: string): WorldTables {
  const tables: WorldTables = {};
  for (const name of snapshotTableNames(store)) {
    tables[name] = tableOf(store, name).partnerRows(partnerId);
  }
  return tables;
}

/** Rows of the partner per snapshot table (for counts). */
export function countWorldRows(tables: WorldTables): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [name, rows] of Object.entries(tables)) counts[name] = rows.length;
  return counts;
}

/**
 * The first row of `tables` whose id another partner holds in this store (ids are store-wide
 * keys, so one id belongs to one partner), or undefined when the world can be put in place.
 */
export function findTakenId(
  store: Store,
  partnerId: string,
  tables: WorldTables,
): { table: string; id: string } | undefined {
  for (const name of snapshotTableNames(store)) {
    const table = tableOf(store, name);
    for (const row of tables[name] ?? []) {
      const held = table.get(row.id);
      if (held && held.partner_id !== partnerId) return { table: name, id: row.id };
    }
  }
  return undefined;
}

/**
 * Replaces every row the partner holds in the snapshot tables by `tables` in one synchronous step
 * (no request can run in between). The deletes and inserts are recorded as changes, so the
 * persistence backend writes the swap like any other change. Call `findTakenId` first.
 */
export function replaceWorldTables(store: Store, partnerId: string, tables: WorldTables): void {
  for (const name of snapshotTableNames(store)) {
    const current = tableOf(store, name).partnerRows(partnerId);
    const wanted = tables[name] ?? [];
    // Rows are immutable: a row object present now and in the world is the same row, untouched
    // (a restore after a test that changed a few rows swaps only those).
    const wantedById = new Map<string, WorldRow>();
    for (const row of wanted) wantedById.set(row.id, row);
    const present = new Set<WorldRow>();
    const deletes: string[] = [];
    for (const row of current) {
      if (wantedById.get(row.id) === row) present.add(row);
      else deletes.push(row.id);
    }
    const upserts = present.size === 0 ? wanted : wanted.filter((row) => !present.has(row));
    if (deletes.length > 0 || upserts.length > 0) tableOf(store, name).apply({ upserts, deletes });
  }
  // The insertion counter orders events and jobs; it continues past every row put back. Rows of a
  // snapshot were numbered by this store (an import renumbers its rows first: `renumberWorld`), so
  // this moves the counter only for a world saved before a restart that lost the counter's tail.
  let maxSeq = store.meta.seq;
  for (const rows of Object.values(tables)) {
    for (const row of rows) {
      if (typeof row.seq === 'number' && row.seq > maxSeq && row.seq <= SEQ_CEILING) maxSeq = row.seq;
    }
  }
  store.meta.seq = maxSeq;
}

/**
 * Gives every row of a world a fresh number from the store's counter, in the order their own
 * numbers gave them (ties: table order, then position). An imported world was numbered on another
 * sandbox (or by hand): its numbers must never move the counter other partners' rows take theirs
 * from. Changes the rows in place: call it on rows no table holds yet.
 */
export function renumberWorld(store: Store, tables: WorldTables): void {
  const order: { row: WorldRow; seq: number; table: number; index: number }[] = [];
  Object.values(tables).forEach((rows, table) => {
    rows.forEach((row, index) => {
      order.push({ row, seq: row.seq ?? 0, table, index });
    });
  });
  order.sort((a, b) => a.seq - b.seq || a.table - b.table || a.index - b.index);
  for (const entry of order) entry.row.seq = store.nextSeq();
}

/**
 * Puts `tables` in place of every row the partner holds in the snapshot tables, whatever state an
 * interrupted swap left the tables in (rows found by a scan, not by the partner's index): undoes an
 * import that failed half-way. Slow (a pass over each table); only for that.
 */
export function forceWorldTables(store: Store, partnerId: string, tables: WorldTables): void {
  for (const name of snapshotTableNames(store)) {
    const table = tableOf(store, name);
    table.deleteWhere((row) => row.partner_id === partnerId);
    table.apply({ upserts: tables[name] ?? [], deletes: [] });
  }
}

/**
 * Measures the rows written to the partner-world tables while the event loop is idle (see
 * `IdleRowSizer`), so that a first save finds their sizes known. Call once, after every module
 * has registered its tables.
 */
export function measureWorldRowsWhenIdle(store: Store, defer: (drain: () => void) => void): IdleRowSizer {
  const sizer = new IdleRowSizer(defer);
  for (const name of snapshotTableNames(store)) {
    const table = tableOf(store, name);
    table.index(sizer.indexFor(table));
  }
  return sizer;
}

/**
 * Bytes of `tables` as JSON (UTF-8), give or take the punctuation between rows. Each row is
 * measured once and remembered, so saving a world again (or after a restore, which puts the same
 * row objects back) costs a lookup per row instead of serialising megabytes.
 */
export function worldBytes(tables: WorldTables): number {
  let bytes = 2;
  for (const [name, rows] of Object.entries(tables)) {
    bytes += name.length + 5;
    for (const row of rows) {
      bytes += rowJsonBytes(row);
    }
  }
  return bytes;
}
