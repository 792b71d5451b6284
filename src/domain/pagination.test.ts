import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { byField, SortedIndex } from '../store/indexes.js';
import { Table } from '../store/table.js';
import { ApiError } from './errors.js';
import { paginate } from './pagination.js';

interface Row {
  id: string;
  seq: number;
  group: string;
  key: string;
}

function setup(keys: string[]) {
  const table = new Table<Row>('rows');
  const index = table.index(
    new SortedIndex<Row>(
      (r) => r.group,
      byField((r) => r.key),
    ),
  );
  keys.forEach((key, i) => {
    table.insert({ id: `r${i}`, seq: i + 1, group: 'g', key });
  });
  return { table, index };
}

/** Walks every page and returns the ids in the order the pages gave them. */
function walk(
  table: Table<Row>,
  index: SortedIndex<Row>,
  order: 'asc' | 'desc',
  limit: number,
  matches?: (r: Row) => boolean,
) {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 1000; pages++) {
    const page = paginate(
      index,
      'g',
      { limit, order, startingAfter: cursor },
      (id) => table.get(id),
      matches,
    );
    seen.push(...page.data.map((r) => r.id));
    if (!page.has_more) return seen;
    expect(page.data).toHaveLength(limit);
    cursor = page.data[page.data.length - 1]?.id;
  }
  throw new Error('pagination did not end');
}

function expected(table: Table<Row>, order: 'asc' | 'desc', matches: (r: Row) => boolean = () => true) {
  const rows = table.dump().filter(matches);
  rows.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.seq - b.seq));
  if (order === 'desc') rows.reverse();
  return rows.map((r) => r.id);
}

describe('paginate', () => {
  it('returns an empty page with has_more false for an empty group', () => {
    const { table, index } = setup([]);
    expect(paginate(index, 'g', { limit: 25, order: 'desc' }, (id) => table.get(id))).toEqual({
      data: [],
      has_more: false,
    });
  });

  it('walks every row exactly once in both orders for any page size, ties broken by insertion', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 40 }),
        fc.integer({ min: 1, max: 12 }),
        fc.constantFrom<'asc' | 'desc'>('asc', 'desc'),
        (keys, limit, order) => {
          const { table, index } = setup(keys);
          expect(walk(table, index, order, limit)).toEqual(expected(table, order));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('continues right after the cursor at every position', () => {
    const { table, index } = setup(['m', 'a', 'z', 'a', 'k', 'b', 'y']);
    for (const order of ['asc', 'desc'] as const) {
      const all = expected(table, order);
      all.forEach((id, position) => {
        const page = paginate(index, 'g', { limit: 100, order, startingAfter: id }, (x) => table.get(x));
        expect(page.data.map((r) => r.id)).toEqual(all.slice(position + 1));
        expect(page.has_more).toBe(false);
      });
    }
  });

  it('applies a filter consistently across pages', () => {
    const { table, index } = setup(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
    const even = (r: Row) => r.seq % 2 === 0;
    expect(walk(table, index, 'asc', 3, even)).toEqual(expected(table, 'asc', even));
  });

  it('refuses a cursor that is unknown, in another group or filtered out, naming starting_after', () => {
    const { table, index } = setup(['a', 'b']);
    table.insert({ id: 'other', seq: 99, group: 'h', key: 'a' });
    for (const cursor of ['missing', 'other', 'r0']) {
      try {
        paginate(
          index,
          'g',
          { limit: 5, order: 'asc', startingAfter: cursor },
          (id) => table.get(id),
          (r) => r.id !== 'r0',
        );
        expect.fail(`cursor ${cursor} was accepted`);
      } catch (error) {
        expect(error).toBeInstanceOf(ApiError);
        expect(error).toMatchObject({ code: 'invalid_cursor', status: 400, param: 'starting_after' });
      }
    }
  });

  it('keeps the index sorted when rows are replaced with a new key', () => {
    const { table, index } = setup(['a', 'b', 'c']);
    table.update('r0', (r) => ({ ...r, key: 'z' }));
    expect(index.rows('g').map((r) => r.id)).toEqual(['r1', 'r2', 'r0']);
    table.delete('r2');
    expect(index.rows('g').map((r) => r.id)).toEqual(['r1', 'r0']);
  });
});
