import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isMoneyString } from './money.js';
import { amortizationSchedule, installmentValue } from './price-table.js';

const sum = (values: readonly string[]): string =>
  values.reduce((acc, v) => acc.plus(v), new Decimal(0)).toFixed(2);

describe('installmentValue', () => {
  it('matches the reference case: 10,000.00 at 2 % in 12 installments is 945.60', () => {
    expect(installmentValue('10000.00', 2, 12)).toBe('945.60');
  });

  it('matches other textbook Price values', () => {
    expect(installmentValue('1000.00', 1, 1)).toBe('1010.00');
    expect(installmentValue('1000.00', 10, 2)).toBe('576.19');
    expect(installmentValue('5000.00', '1.99', 24)).toBe('264.06');
  });

  it('divides evenly with a zero rate', () => {
    expect(installmentValue('1200.00', 0, 12)).toBe('100.00');
    expect(installmentValue('100.00', 0, 3)).toBe('33.33');
    expect(installmentValue('200.00', 0, 3)).toBe('66.67');
  });

  it('refuses impossible terms', () => {
    expect(() => installmentValue('0.00', 2, 12)).toThrow(/greater than zero/);
    expect(() => installmentValue('1000.00', 2, 0)).toThrow(/at least 1/);
    expect(() => installmentValue('1000.00', 2, 1.5)).toThrow(/whole number/);
  });
});

describe('amortizationSchedule', () => {
  it('splits the reference case line by line', () => {
    const lines = amortizationSchedule('10000.00', 2, 12, '945.60');
    expect(lines.map((line) => line.principal)).toEqual([
      '745.60',
      '760.51',
      '775.72',
      '791.24',
      '807.06',
      '823.20',
      '839.67',
      '856.46',
      '873.59',
      '891.06',
      '908.88',
      '927.01',
    ]);
    expect(lines[0]).toEqual({
      number: 1,
      payment: '945.60',
      interest: '200.00',
      principal: '745.60',
      balance: '9254.40',
    });
    // The last line's principal is the remaining balance; its interest absorbs the rounding cents.
    expect(lines[11]).toEqual({
      number: 12,
      payment: '945.60',
      interest: '18.59',
      principal: '927.01',
      balance: '0.00',
    });
    expect(sum(lines.map((line) => line.interest))).toBe('1347.20');
  });

  it('lets the last line absorb the rounding, even below zero interest on tiny loans', () => {
    // 100.00 at 0.5 % in 24: the payment 4.4321... rounds down to 4.43, so 0.03 more principal is
    // left for the last line than its payment covers. Every payment stays 4.43 as DESIGN.md requires.
    const lines = amortizationSchedule('100.00', '0.5', 24, installmentValue('100.00', '0.5', 24));
    expect(lines.at(-1)).toEqual({
      number: 24,
      payment: '4.43',
      interest: '-0.03',
      principal: '4.46',
      balance: '0.00',
    });
  });

  it('never lets the balance go below zero when the rounded payment overpays at high rates', () => {
    // 100.18 at 14.88 % over 45 months: the payment rounded up to 14.94 retires the debt early.
    const payment = installmentValue('100.18', '14.88', 45);
    const lines = amortizationSchedule('100.18', '14.88', 45, payment);
    for (const line of lines) {
      expect(new Decimal(line.balance).isNegative()).toBe(false);
      expect(new Decimal(line.principal).isNegative()).toBe(false);
    }
    expect(sum(lines.map((line) => line.principal))).toBe('100.18');
    expect(lines.at(-1)?.balance).toBe('0.00');
  });

  it('keeps every payment equal and the principals adding up to P', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 10_000, max: 50_000_000 }),
        fc.integer({ min: 50, max: 1500 }),
        fc.integer({ min: 1, max: 48 }),
        (cents, rateHundredths, count) => {
          const principal = new Decimal(cents).div(100).toFixed(2);
          const rate = new Decimal(rateHundredths).div(100).toString();
          const payment = installmentValue(principal, rate, count);
          const lines = amortizationSchedule(principal, rate, count, payment);
          expect(lines).toHaveLength(count);
          expect(sum(lines.map((line) => line.principal))).toBe(principal);
          expect(sum(lines.map((line) => line.interest))).toBe(
            new Decimal(payment).mul(count).minus(principal).toFixed(2),
          );
          for (const line of lines) {
            expect(line.payment).toBe(payment);
            expect(new Decimal(line.principal).plus(line.interest).toFixed(2)).toBe(payment);
            expect(isMoneyString(line.principal)).toBe(true);
            expect(isMoneyString(line.balance)).toBe(true);
          }
          expect(lines.at(-1)?.balance).toBe('0.00');
        },
      ),
      { numRuns: 300 },
    );
  });
});
