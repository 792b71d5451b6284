import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SortedIndex } from './indexes.js';
import { Table } from './table.js';

interface Row {
  id: string;
  seq: number;
  partner_id: string;
  name: string;
}

const order = (a: Row, b: Row) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.seq - b.seq);

describe('SortedIndex.removeAll', () => {
  it('leaves every group as removing the rows one by one would, and keeps live views live', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ partner: fc.constantFrom('a', 'b', 'c'), name: fc.string({ maxLength: 3 }) }), {
          maxLength: 60,
        }),
        fc.array(fc.boolean(), { maxLength: 60 }),
        (specs, picks) => {
          const rows: Row[] = specs.map((s, i) => ({
            id: `r${i}`,
            seq: i,
            partner_id: s.partner,
            name: s.name,
          }));
          const bulk = new SortedIndex<Row>((r) => r.partner_id, order);
          const single = new SortedIndex<Row>((r) => r.partner_id, order);
          bulk.addAll(rows);
          single.addAll(rows);
          const view = bulk.rows('a');
          const gone = rows.filter((_, i) => picks[i] === true);
          bulk.removeAll(gone);
          for (const row of gone) single.remove(row);
          for (const key of ['a', 'b', 'c']) expect(bulk.rows(key)).toEqual(single.rows(key));
          if (bulk.rows('a').length > 0) expect(view).toBe(bulk.rows('a'));
        },
      ),
    );
  });

  it('is what a table uses to take many rows out at once (apply with deletes)', () => {
    const table = new Table<Row>('rows');
    const byName = table.index(new SortedIndex<Row>((r) => r.partner_id, order));
    const rows = Array.from({ length: 40 }, (_, i) => ({
      id: `r${i}`,
      seq: i,
      partner_id: 'a',
      name: `n${i % 7}`,
    }));
    table.apply({ upserts: rows, deletes: [] });
    table.apply({ upserts: [], deletes: rows.filter((_, i) => i % 3 === 0).map((r) => r.id) });
    expect(table.size).toBe(26);
    expect(byName.rows('a').map((r) => r.id)).toEqual(
      rows
        .filter((_, i) => i % 3 !== 0)
        .sort(order)
        .map((r) => r.id),
    );
  });
});
