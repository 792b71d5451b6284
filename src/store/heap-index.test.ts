import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HeapIndex } from './heap-index.js';
import { Table } from './table.js';

interface Row {
  id: string;
  seq: number;
  group: string;
  due: number;
}

const order = (a: Row, b: Row) => a.due - b.due || a.seq - b.seq;

describe('HeapIndex', () => {
  it('always yields the smallest live row of each group, like a sorted list would', () => {
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('add' as const),
        group: fc.constantFrom('a', 'b'),
        due: fc.integer({ min: 0, max: 50 }),
      }),
      fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('pop' as const), group: fc.constantFrom('a', 'b') }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const table = new Table<Row>('rows');
        const index = table.index(new HeapIndex<Row>((r) => r.group, order));
        let seq = 0;
        for (const o of ops) {
          if (o.kind === 'add') {
            seq++;
            table.insert({ id: `r${seq}`, seq, group: o.group, due: o.due });
          } else if (o.kind === 'remove') {
            const rows = table.dump();
            const row = rows[o.pick % Math.max(rows.length, 1)];
            if (row) table.delete(row.id);
          } else {
            const top = index.peek(o.group);
            if (top) table.delete(top.id);
          }
          for (const group of ['a', 'b']) {
            const expected = table
              .dump()
              .filter((r) => r.group === group)
              .sort(order);
            expect(index.peek(group)).toBe(expected[0]);
            expect(index.size(group)).toBe(expected.length);
          }
        }
        for (const group of ['a', 'b']) {
          expect(index.rows(group)).toEqual(
            table
              .dump()
              .filter((r) => r.group === group)
              .sort(order),
          );
        }
      }),
    );
  });

  it('forgets removed rows instead of keeping them forever', () => {
    const table = new Table<Row>('rows');
    const index = table.index(new HeapIndex<Row>((r) => r.group, order));
    for (let i = 0; i < 10_000; i++) table.insert({ id: `r${i}`, seq: i, group: 'a', due: 10_000 - i });
    for (let i = 1; i < 10_000; i++) table.delete(`r${i}`);
    expect(index.size('a')).toBe(1);
    // Internal heap size stays bounded by the live rows (rebuilt when dead rows dominate).
    const heap = (index as unknown as { groups: Map<string, { heap: Row[] }> }).groups.get('a')?.heap ?? [];
    expect(heap.length).toBeLessThan(100);
    expect(index.peek('a')?.id).toBe('r0');
  });
});
