import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { byField, SortedIndex } from './indexes.js';
import { Table } from './table.js';

interface Row {
  id: string;
  seq: number;
  group: string;
  at: string;
  status: string;
}

describe('Table.replace with SortedIndex', () => {
  it('keeps every group sorted whether a replace keeps the row in place or moves it', () => {
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('insert' as const),
        group: fc.constantFrom('a', 'b'),
        at: fc.integer({ min: 0, max: 9 }),
      }),
      fc.record({
        kind: fc.constant('replace' as const),
        pick: fc.nat(),
        group: fc.option(fc.constantFrom('a', 'b'), { nil: undefined }),
        at: fc.option(fc.integer({ min: 0, max: 9 }), { nil: undefined }),
        status: fc.constantFrom('pending', 'done'),
      }),
      fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const table = new Table<Row>('rows');
        const byAt = table.index(
          new SortedIndex<Row>(
            (r) => r.group,
            byField((r) => r.at),
          ),
        );
        const byStatus = table.index(
          new SortedIndex<Row>(
            (r) => `${r.group}|${r.status}`,
            (a, b) => a.seq - b.seq,
          ),
        );
        let seq = 0;
        for (const o of ops) {
          const rows = table.dump();
          const picked = 'pick' in o ? rows[o.pick % Math.max(rows.length, 1)] : undefined;
          if (o.kind === 'insert') {
            seq++;
            table.insert({ id: `r${seq}`, seq, group: o.group, at: String(o.at), status: 'pending' });
          } else if (o.kind === 'replace' && picked) {
            table.replace({
              ...picked,
              group: o.group ?? picked.group,
              at: o.at === undefined ? picked.at : String(o.at),
              status: o.status,
            });
          } else if (o.kind === 'delete' && picked) {
            table.delete(picked.id);
          }
        }
        const all = table.dump();
        for (const group of ['a', 'b']) {
          const expected = all.filter((r) => r.group === group).sort(byField<Row>((r) => r.at));
          expect(byAt.rows(group)).toEqual(expected);
          for (const row of expected) expect(byAt.positionOf(group, row)).toBe(expected.indexOf(row));
          for (const status of ['pending', 'done']) {
            expect(byStatus.rows(`${group}|${status}`)).toEqual(
              all.filter((r) => r.group === group && r.status === status).sort((x, y) => x.seq - y.seq),
            );
          }
        }
      }),
    );
  });
});
