import { SEQ_CEILING } from './record-rules.js';
import type { SnapshotRecord, WorldRow } from './snapshot-records.js';
import type { Store } from './store.js';

type Numbered = { id: string; seq?: number; partner_id?: string };

/**
 * Re-numbers the rows whose `seq` an older version let run past SEQ_CEILING (an import could set
 * any number up to 2^53 - 1, and the store-wide counter then went past Number.MAX_SAFE_INTEGER,
 * giving other partners' new rows equal numbers). Those rows get fresh numbers above the highest
 * sound one, in the order they had (ties: table order, then id), so every order and cursor holds
 * again; rows inside saved snapshots likewise. The counter is put back at the highest number now
 * used. Rows below the ceiling keep theirs. Changes are recorded like any write, so the next flush
 * saves the repair. Returns how many rows got a new number (0: nothing was wrong).
 */
export function repairSequence(store: Store): number {
  let sound = 0;
  const damaged: { table: number; name: string; row: Numbered }[] = [];
  const names = store.tableNames();
  names.forEach((name, table) => {
    for (const row of store.dumpTable(name) as Numbered[]) {
      const seq = row.seq;
      if (typeof seq !== 'number') continue;
      if (seq > SEQ_CEILING) damaged.push({ table, name, row });
      else if (seq > sound) sound = seq;
    }
  });
  const snapshots = (store.dumpTable('snapshots') as SnapshotRecord[]).filter((row) => {
    let bad = false;
    for (const rows of Object.values(row.world.tables)) {
      for (const r of rows) {
        if ((r.seq ?? 0) > SEQ_CEILING) bad = true;
        else if ((r.seq ?? 0) > sound) sound = r.seq ?? 0;
      }
    }
    return bad;
  });
  if (damaged.length === 0 && snapshots.length === 0 && store.meta.seq <= SEQ_CEILING) return 0;

  store.meta.seq = Math.max(sound, store.meta.seq <= SEQ_CEILING ? store.meta.seq : 0);
  damaged.sort(
    (a, b) => (a.row.seq ?? 0) - (b.row.seq ?? 0) || a.table - b.table || compare(a.row.id, b.row.id),
  );
  const byTable = new Map<string, Numbered[]>();
  for (const { name, row } of damaged) {
    const rows = byTable.get(name) ?? [];
    rows.push({ ...row, seq: store.nextSeq() });
    byTable.set(name, rows);
  }
  for (const [name, rows] of byTable) {
    // The request log keys its entries by number: the old entries go, the renumbered ones come in.
    store.table(name)?.apply({ upserts: rows, deletes: name === 'requests' ? rows.map((r) => r.id) : [] });
  }
  const fixed = [...store.dumpTable('snapshots')] as SnapshotRecord[];
  let renumbered = damaged.length;
  for (const snapshot of snapshots) {
    const current = fixed.find((row) => row.id === snapshot.id) ?? snapshot;
    const { tables, count } = renumberDamaged(store, current.world.tables);
    renumbered += count;
    store.snapshots.replace({ ...current, world: { ...current.world, tables } });
  }
  return renumbered;
}

/** A world's rows above the ceiling with fresh numbers in their order; the others as they are. */
function renumberDamaged(store: Store, tables: Record<string, WorldRow[]>) {
  const damaged: { table: number; index: number; name: string; row: WorldRow }[] = [];
  Object.entries(tables).forEach(([name, rows], table) => {
    rows.forEach((row, index) => {
      if ((row.seq ?? 0) > SEQ_CEILING) damaged.push({ table, index, name, row });
    });
  });
  damaged.sort((a, b) => (a.row.seq ?? 0) - (b.row.seq ?? 0) || a.table - b.table || a.index - b.index);
  const out: Record<string, WorldRow[]> = {};
  for (const [name, rows] of Object.entries(tables)) out[name] = [...rows];
  for (const { name, index, row } of damaged) {
    (out[name] as WorldRow[])[index] = { ...row, seq: store.nextSeq() };
  }
  return { tables: out, count: damaged.length };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
