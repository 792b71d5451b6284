import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DRAIN_SLICE_BYTES, IdleRowSizer, isRowMeasured, rowJsonBytes } from './row-sizes.js';
import { Table } from './table.js';

/** A `defer` the test runs by hand: the drains it was asked to schedule, in order. */
function manualDefer() {
  const waiting: (() => void)[] = [];
  return {
    defer: (drain: () => void) => waiting.push(drain),
    waiting,
    runAll() {
      let turns = 0;
      while (waiting.length > 0) {
        (waiting.shift() as () => void)();
        turns++;
      }
      return turns;
    },
  };
}

interface Row {
  id: string;
  partner_id: string;
  name: string;
}

const row = (id: string, name = `name ${id}`): Row => ({ id, partner_id: 'ptn_1', name });

/** A table with a sizer registered on it, and the hand-run drains. */
function sizedTable(maxPending?: number) {
  const timing = manualDefer();
  const sizer = new IdleRowSizer(timing.defer, maxPending);
  const table = new Table<Row>('customers');
  table.index(sizer.indexFor(table));
  return { timing, sizer, table };
}

describe('rowJsonBytes', () => {
  it('is the UTF-8 length of the row as JSON plus its comma, for any JSON row', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (value) => {
        const object = { ...value };
        expect(rowJsonBytes(object)).toBe(Buffer.byteLength(JSON.stringify(object)) + 1);
      }),
    );
  });

  it('counts escapes, multi-byte characters and NUL as the JSON text has them', () => {
    const object = { id: 'r', name: 'Jo\u00e3o "\\" \u0000 \u{1F600}' };
    expect(rowJsonBytes(object)).toBe(Buffer.byteLength(JSON.stringify(object)) + 1);
  });
});

describe('IdleRowSizer', () => {
  it('measures the rows a table holds after inserts, replaces and bulk loads, only when its drain runs', () => {
    const { timing, sizer, table } = sizedTable();
    const first = table.insert(row('a'));
    const second = table.replace(row('a', 'renamed'));
    table.apply({ upserts: [row('b'), row('c'), row('d')], deletes: [] });
    table.delete('d');
    expect([first, second].map(isRowMeasured)).toEqual([false, false]);
    // 'a' waits once, as its latest version; 'd' stopped waiting when it was deleted.
    expect(sizer.stats().pending).toBe(3);
    expect(timing.waiting).toHaveLength(1);

    timing.runAll();
    const held = [second, table.get('b'), table.get('c')] as Row[];
    expect(held.map(isRowMeasured)).toEqual([true, true, true]);
    // The version replaced and the row deleted before the drain are never saved: not measured.
    expect(isRowMeasured(first)).toBe(false);
    expect(sizer.stats()).toEqual({
      pending: 0,
      measuredRows: 3,
      measuredBytes: held.reduce((sum, r) => sum + rowJsonBytes(r), 0),
      dropped: 0,
    });
  });

  it('stops a drain after a slice of JSON and schedules the rest for a later turn', () => {
    const { timing, sizer, table } = sizedTable();
    const big = 'x'.repeat(10_000);
    const rows = Array.from({ length: 20 }, (_, k) => row(`r${k}`, big));
    table.apply({ upserts: rows, deletes: [] });
    timing.waiting.shift()?.();
    const perRow = rowJsonBytes({ ...rows[0] });
    const firstSlice = Math.ceil(DRAIN_SLICE_BYTES / perRow);
    expect(sizer.stats().measuredRows).toBe(firstSlice);
    expect(timing.waiting).toHaveLength(1);
    timing.runAll();
    expect(sizer.stats()).toMatchObject({ pending: 0, measuredRows: 20 });
  });

  it('says when every queued row is measured, and at once when none waits', async () => {
    const { timing, sizer, table } = sizedTable();
    await sizer.whenDrained();
    const big = 'x'.repeat(10_000);
    table.apply({ upserts: Array.from({ length: 10 }, (_, k) => row(`r${k}`, big)), deletes: [] });
    let drained = false;
    const waiting = sizer.whenDrained().then(() => {
      drained = true;
    });
    timing.waiting.shift()?.();
    await Promise.resolve();
    expect(drained).toBe(false);
    timing.runAll();
    await waiting;
    expect(sizer.stats()).toMatchObject({ pending: 0, measuredRows: 10 });
  });

  it('skips rows a save measured first, and measures each row once', () => {
    const { timing, sizer, table } = sizedTable();
    const early = row('early');
    rowJsonBytes(early);
    table.insert(early);
    table.replace(early);
    const late = row('late');
    table.insert(late);
    table.replace(late);
    timing.runAll();
    expect(sizer.stats()).toMatchObject({ pending: 0, measuredRows: 1 });
  });

  it('queues at most its bound of rows and counts the ones it leaves to the save', () => {
    const { timing, sizer, table } = sizedTable(3);
    const rows = Array.from({ length: 5 }, (_, k) => row(`r${k}`));
    table.apply({ upserts: rows, deletes: [] });
    expect(sizer.stats()).toMatchObject({ pending: 3, dropped: 2 });
    timing.runAll();
    expect(rows.map(isRowMeasured)).toEqual([true, true, true, false, false]);
    table.replace(rows[4] as Row);
    timing.runAll();
    expect(isRowMeasured(rows[4] as Row)).toBe(true);
  });

  it('holds one version of a row however often it is replaced while the drain waits', () => {
    const { timing, sizer, table } = sizedTable();
    const versions = [table.insert(row('a'))];
    for (let k = 0; k < 1000; k++) versions.push(table.replace(row('a', `version ${k}`)));
    expect(sizer.stats().pending).toBe(1);
    const waiting = (sizer as unknown as { queues: Map<object, Map<string, object>> }).queues;
    expect([...waiting.values()].map((queue) => [...queue.values()])).toEqual([[versions.at(-1)]]);
    timing.runAll();
    expect(versions.filter(isRowMeasured)).toEqual([versions.at(-1)]);
    expect(sizer.stats()).toMatchObject({ pending: 0, measuredRows: 1, dropped: 0 });
  });

  it('lets go of rows their table deleted or cleared before the drain', () => {
    const { timing, sizer, table } = sizedTable();
    const rows = Array.from({ length: 6 }, (_, k) => table.insert(row(`r${k}`)));
    table.delete('r0');
    table.apply({ upserts: [], deletes: ['r1', 'r2'] });
    expect(sizer.stats().pending).toBe(3);
    table.clear();
    expect(sizer.stats().pending).toBe(0);
    timing.runAll();
    expect(rows.filter(isRowMeasured)).toEqual([]);
  });

  it('measures every row under writes that never let the queue empty, and then empties it', () => {
    const { timing, sizer, table } = sizedTable();
    const big = 'y'.repeat(1_000);
    let written = 0;
    const write = (count: number) => {
      for (let k = 0; k < count; k++) table.insert(row(`t${written++}`, big));
    };
    const perSlice = Math.ceil(DRAIN_SLICE_BYTES / rowJsonBytes(row('probe', big)));
    // A backlog, then each turn almost as many rows as a slice measures: the queue never empties.
    write(12_000);
    for (let turn = 0; turn < 300; turn++) {
      timing.waiting.shift()?.();
      write(perSlice - 2);
    }
    const { pending, measuredRows } = sizer.stats();
    expect(pending + measuredRows).toBe(written);
    expect(pending).toBeGreaterThan(0);
    timing.runAll();
    expect(sizer.stats()).toMatchObject({ pending: 0, measuredRows: written });
  });
});
