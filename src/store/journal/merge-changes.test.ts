import { describe, expect, it } from 'vitest';
import { mergeChangeSets } from './merge-changes.js';

const meta = (seq: number) => ({ seq, signing_key: 'k' });

describe('mergeChangeSets', () => {
  it('keeps, per row, the later of an upsert and a delete, and the later meta', () => {
    const merged = mergeChangeSets(
      {
        meta: meta(1),
        tables: { a: { upserts: [{ id: 'x' }, { id: 'y' }], deletes: ['z'] } },
      },
      {
        meta: meta(2),
        tables: { a: { upserts: [{ id: 'z' }], deletes: ['x'] }, b: { upserts: [{ id: 'w' }], deletes: [] } },
      },
    );
    expect(merged.meta.seq).toBe(2);
    expect(merged.tables.a?.upserts.map((r) => r.id).sort()).toEqual(['y', 'z']);
    expect(merged.tables.a?.deletes).toEqual(['x']);
    expect(merged.tables.b?.upserts).toEqual([{ id: 'w' }]);
  });
});
