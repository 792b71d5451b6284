import { describe, expect, it } from 'vitest';
import type { ChangeSet } from '../change-set.js';
import { mergeChangeSets, rowPartner } from './rows.js';

const meta = (seq: number) => ({ seq, signing_key: 'k' });

describe('mergeChangeSets', () => {
  it('keeps the later version of each row and the later of upsert and delete', () => {
    const earlier: ChangeSet = {
      meta: meta(1),
      tables: {
        customers: { upserts: [{ id: 'a', v: 1 } as { id: string }, { id: 'b' }], deletes: ['c'] },
        loans: { upserts: [{ id: 'l' }], deletes: [] },
      },
    };
    const later: ChangeSet = {
      meta: meta(2),
      tables: { customers: { upserts: [{ id: 'a', v: 2 } as { id: string }, { id: 'c' }], deletes: ['b'] } },
    };
    const merged = mergeChangeSets(earlier, later);
    expect(merged.meta.seq).toBe(2);
    const customers = merged.tables.customers;
    expect(customers?.upserts.sort((x, y) => x.id.localeCompare(y.id))).toEqual([
      { id: 'a', v: 2 },
      { id: 'c' },
    ]);
    expect(customers?.deletes).toEqual(['b']);
    expect(merged.tables.loans).toEqual({ upserts: [{ id: 'l' }], deletes: [] });
  });
});

describe('rowPartner', () => {
  it('is the partner_id, or the id of a partner row', () => {
    expect(rowPartner({ id: 'cus_1', partner_id: 'ptn_a' })).toBe('ptn_a');
    expect(rowPartner({ id: 'ptn_a' })).toBe('ptn_a');
  });
});
