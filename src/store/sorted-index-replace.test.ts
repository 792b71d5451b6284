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
