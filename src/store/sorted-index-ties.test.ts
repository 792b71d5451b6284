import { describe, expect, it } from 'vitest';
import { SortedIndex } from './indexes.js';

type Row = { id: string; seq: number };

describe('SortedIndex with rows that rank equal', () => {
  it('removes, replaces and finds the very row, not its first equal', () => {
    // The order is total for rows the API writes; rows an older version let in may tie (equal seq).
    const index = new SortedIndex<Row>(
      () => 'p',
      (a, b) => a.seq - b.seq,
    );
    const rows = ['a', 'b', 'c', 'd'].map((id) => ({ id, seq: 9 }));
    index.addAll(rows);
    const [, b, c] = rows as [Row, Row, Row, Row];
    expect(index.positionOf('p', c)).toBe(2);
    index.remove(b);
    expect(index.rows('p').map((r) => r.id)).toEqual(['a', 'c', 'd']);
    index.replace(c, { id: 'c', seq: 1 });
    expect(index.rows('p').map((r) => r.id)).toEqual(['c', 'a', 'd']);
    expect(index.positionOf('p', b)).toBe(-1);
  });
});
