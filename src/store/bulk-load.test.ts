import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { byField, SortedIndex } from './indexes.js';
import { Table } from './table.js';

interface Row {
  id: string;
  seq: number;
  group: string;
  name: string;
}

function indexedTable() {
  const table = new Table<Row>('rows');
  const byName = table.index(
    new SortedIndex<Row>(
      (r) => r.group,
      byField((r) => r.name),
    ),
  );
  return { table, byName };
}

describe('bulk loading (restores and journal replays)', () => {
  it('orders every group as adding the rows one by one does', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ group: fc.constantFrom('a', 'b', 'c'), name: fc.string({ maxLength: 3 }) }), {
          maxLength: 60,
        }),
        fc.nat(60),
        (specs, split) => {
          const rows = specs.map((spec, i) => ({ id: `r${i}`, seq: i, ...spec }));
          const one = indexedTable();
          for (const row of rows) one.table.insert(row);
          const bulk = indexedTable();
          bulk.table.load(rows.slice(0, split)); // a snapshot…
          bulk.table.apply({ upserts: rows.slice(split), deletes: [] }); // …then a replay adding more
          for (const group of ['a', 'b', 'c']) {
            expect(bulk.byName.rows(group).map((r) => r.id)).toEqual(one.byName.rows(group).map((r) => r.id));
          }
        },
      ),
    );
  });
});
