import { describe, expect, it } from 'vitest';
import { byCustomerName } from './customer-indexes.js';
import type { CustomerRecord } from './records.js';

const row = (seq: number, name: string | null) => ({ seq, name }) as CustomerRecord;

describe('byCustomerName', () => {
  it('folds case and accents, puts missing names first, then exact text, then insertion', () => {
    const rows = [
      row(1, 'bruno'),
      row(2, 'Álvaro'),
      row(3, null),
      row(4, 'ana'),
      row(5, 'Ana'),
      row(6, 'Bruno'),
      row(7, 'alvaro'),
      row(8, 'Ana'),
    ];
    const sorted = [...rows].sort(byCustomerName).map((r) => r.seq);
    expect(sorted).toEqual([3, 7, 2, 5, 8, 4, 6, 1]);
  });

  it('is a total order (0 only for the same row)', () => {
    expect(byCustomerName(row(1, 'Ana'), row(1, 'Ana'))).toBe(0);
    expect(byCustomerName(row(1, 'Ana'), row(2, 'Ana'))).toBeLessThan(0);
  });
});
