import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { byCustomerName, NAME_KEYS_KEPT, nameKey, nameKeysKept } from './customer-indexes.js';
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

describe('byCustomerName against a prepared row', () => {
  /** The order as first written: keys, then exact text, then insertion. */
  const reference = (a: CustomerRecord, b: CustomerRecord) => {
    const fold = (n: string | null) => (n ?? '').normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    const [ka, kb] = [fold(a.name), fold(b.name)];
    if (ka !== kb) return ka < kb ? -1 : 1;
    const [ra, rb] = [a.name ?? '', b.name ?? ''];
    if (ra !== rb) return ra < rb ? -1 : 1;
    return a.seq - b.seq;
  };
  const name = fc.option(
    fc.constantFrom('Ana', 'ana', 'Álvaro', 'alvaro', 'Bruno', 'ÇA', 'ça', 'Zé', 'ze', ''),
    {
      nil: null,
    },
  );

  it('orders as the reference does, whether called plainly or through against()', () => {
    fc.assert(
      fc.property(name, name, fc.nat(5), fc.nat(5), (na, nb, sa, sb) => {
        const a = row(sa, na);
        const b = row(sb, nb);
        const expected = Math.sign(reference(a, b));
        expect(Math.sign(byCustomerName(a, b))).toBe(expected);
        expect(
          Math.sign((byCustomerName.against as (b: CustomerRecord) => (a: CustomerRecord) => number)(b)(a)),
        ).toBe(expected);
      }),
    );
  });
});

describe('nameKey', () => {
  it('is the name without accents or case, whether remembered or not', () => {
    const fold = (name: string) => name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (name) => {
        expect(nameKey(name)).toBe(fold(name));
        expect(nameKey(name)).toBe(fold(name));
      }),
    );
    expect(nameKey('João da Conceição')).toBe('joao da conceicao');
    expect(nameKey(null)).toBe('');
  });

  it('remembers at most NAME_KEYS_KEPT keys, and never a text longer than a valid name', () => {
    for (let k = 0; k < NAME_KEYS_KEPT * 2 + 10; k++) {
      nameKey(`Cliente ${k}`);
      expect(nameKeysKept()).toBeLessThanOrEqual(NAME_KEYS_KEPT);
    }
    const before = nameKeysKept();
    nameKey('x'.repeat(201));
    expect(nameKeysKept()).toBe(before);
  });
});
