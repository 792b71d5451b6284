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

const GROUPS = ['a', 'b'];
const STATUSES = ['available', 'accepted', 'expired'];

describe('SortedIndex removals noted, cut out when read', () => {
  for (const spliceUpTo of [0, 2]) {
    it(`reads exactly what a spliced index reads, whenever it is read (splice up to ${spliceUpTo})`, () => {
      const op = fc.oneof(
        fc.record({ kind: fc.constant('insert' as const), group: fc.constantFrom(...GROUPS), at: fc.nat(9) }),
        fc.record({
          kind: fc.constant('move' as const),
          pick: fc.nat(),
          status: fc.constantFrom(...STATUSES),
        }),
        fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
        fc.record({ kind: fc.constant('read' as const), group: fc.constantFrom(...GROUPS) }),
      );
      fc.assert(
        fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
          const table = new Table<Row>('rows');
          const lazy = table.index(
            new SortedIndex<Row>(
              (r) => `${r.group}|${r.status}`,
              byField((r) => r.at),
              spliceUpTo,
            ),
          );
          const exact = table.index(
            new SortedIndex<Row>(
              (r) => `${r.group}|${r.status}`,
              byField((r) => r.at),
              Number.POSITIVE_INFINITY,
            ),
          );
          let seq = 0;
          const check = (group: string) => {
            for (const status of STATUSES) {
              const key = `${group}|${status}`;
              const expected = [...exact.rows(key)];
              expect(lazy.has(key)).toBe(expected.length > 0);
              expect(lazy.rows(key)).toEqual(expected);
              for (const row of expected) expect(lazy.positionOf(key, row)).toBe(expected.indexOf(row));
            }
          };
          for (const o of ops) {
            const rows = table.dump();
            const picked = 'pick' in o ? rows[o.pick % Math.max(rows.length, 1)] : undefined;
            if (o.kind === 'insert') {
              seq++;
              table.insert({ id: `r${seq}`, seq, group: o.group, at: String(o.at), status: 'available' });
            } else if (o.kind === 'move' && picked) table.replace({ ...picked, status: o.status });
            else if (o.kind === 'delete' && picked) table.delete(picked.id);
            else if (o.kind === 'read') check(o.group);
            // At most a sixteenth of what the groups hold waits to be cut out.
            expect(lazy.pendingRemovals() * 16).toBeLessThanOrEqual(
              table.dump().length + 16 * STATUSES.length * 2,
            );
          }
          for (const group of GROUPS) check(group);
          expect(lazy.pendingRemovals()).toBe(0);
        }),
      );
    });
  }

  it('a row leaving a long group costs no splice until the group is read', () => {
    const table = new Table<Row>('rows');
    const index = table.index(
      new SortedIndex<Row>(
        (r) => r.status,
        (x, y) => x.seq - y.seq,
      ),
    );
    for (let seq = 1; seq <= 1000; seq++)
      table.insert({ id: `r${seq}`, seq, group: 'a', at: '0', status: 'available' });
    const live = index.rows('available');
    const leaving = table.get('r10') as Row;
    table.replace({ ...leaving, status: 'accepted' });
    // Still in the array the reader holds: noted, not moved.
    expect(live).toHaveLength(1000);
    expect(index.pendingRemovals()).toBe(1);
    expect(index.rows('accepted')).toEqual([table.get('r10')]);
    const read = index.rows('available');
    expect(read).toHaveLength(999);
    expect(read.some((r) => r.id === 'r10')).toBe(false);
    expect(index.pendingRemovals()).toBe(0);
  });
});
