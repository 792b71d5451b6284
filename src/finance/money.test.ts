import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMoney, isMoneyString, round2, toDecimal } from './money.js';

describe('isMoneyString', () => {
  it('accepts non-negative amounts with exactly 2 decimals', () => {
    for (const value of ['0.00', '0.01', '10000.00', '945.60', '500000.00'])
      expect(isMoneyString(value)).toBe(true);
  });

  it('refuses other shapes', () => {
    for (const value of [
      '10000',
      '945.6',
      '945.600',
      '01.00',
      '-1.00',
      '+1.00',
      '1e3',
      '1.5e2',
      ' 1.00',
      '1,00',
      '',
      '.50',
      '1.',
    ]) {
      expect(isMoneyString(value)).toBe(false);
    }
  });
});

describe('round2', () => {
  it('rounds half up to cents', () => {
    expect(round2(new Decimal('0.005')).toFixed(2)).toBe('0.01');
    expect(round2(new Decimal('0.0049999')).toFixed(2)).toBe('0.00');
    expect(round2(new Decimal('167.3652185')).toFixed(2)).toBe('167.37');
    expect(round2(new Decimal('2.345')).toFixed(2)).toBe('2.35');
  });

  it('never answers negative zero', () => {
    expect(formatMoney(new Decimal('-0.001'))).toBe('0.00');
    expect(formatMoney(new Decimal('-0'))).toBe('0.00');
  });

  it('ignores a global Decimal.set elsewhere in the process', () => {
    const saved = Decimal.rounding;
    Decimal.set({ rounding: Decimal.ROUND_DOWN });
    try {
      expect(formatMoney(toDecimal('2.345'))).toBe('2.35');
      expect(formatMoney(toDecimal('1').div(3).mul(3))).toBe('1.00');
    } finally {
      Decimal.set({ rounding: saved });
    }
  });
});

describe('formatMoney and toDecimal', () => {
  it('writes exactly 2 decimals', () => {
    expect(formatMoney(toDecimal('10000'))).toBe('10000.00');
    expect(formatMoney(toDecimal('945.6'))).toBe('945.60');
    expect(formatMoney(toDecimal('1234567890.125'))).toBe('1234567890.13');
  });

  it('refuses exponents and junk so floats cannot sneak in', () => {
    for (const value of ['1e3', 'abc', '', '1,5', '0x10', 'Infinity', 'NaN'])
      expect(() => toDecimal(value)).toThrow(RangeError);
    expect(() => toDecimal(new Decimal(Number.NaN))).toThrow(RangeError);
  });

  it('round-trips every cent amount', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), (cents) => {
        const text = `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
        expect(isMoneyString(text)).toBe(true);
        expect(formatMoney(toDecimal(text))).toBe(text);
      }),
      { numRuns: 200 },
    );
  });
});
