import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cetAnnualRate, cetPercentage } from './cet.js';
import { FinanceDecimal, round2 } from './money.js';

const referenceDays = [31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365];

// Present value of equal installments at annual rate r, written directly from the CMN 4.881 formula.
function presentValue(payment: string, days: readonly number[], r: Decimal): Decimal {
  let total = new Decimal(0);
  for (const d of days) total = total.plus(new Decimal(payment).div(r.plus(1).pow(new Decimal(d).div(365))));
  return total;
}

describe('cetPercentage', () => {
  it('gives the reference case 32.14 % a year', () => {
    expect(
      cetPercentage({ netAmount: '9794.63', installmentValue: '945.60', dayCounts: referenceDays }),
    ).toBe(32.14);
  });

  it('solves the CMN 4.881 equation', () => {
    const r = cetAnnualRate({ netAmount: '9794.63', installmentValue: '945.60', dayCounts: referenceDays });
    expect(presentValue('945.60', referenceDays, r).minus('9794.63').abs().lt('1e-12')).toBe(true);
  });

  it('is the plain annual rate for a single payment', () => {
    // 1000 now, 1100 in 365 days: exactly 10 % a year.
    expect(cetPercentage({ netAmount: '1000.00', installmentValue: '1100.00', dayCounts: [365] })).toBe(10);
    // 30 days at 1 %: (1.01)^(365/30) - 1 = 12.8695...%.
    expect(cetPercentage({ netAmount: '1000.00', installmentValue: '1010.00', dayCounts: [30] })).toBe(12.87);
  });

  it('is zero when the installments only return the net amount', () => {
    expect(
      cetPercentage({ netAmount: '1200.00', installmentValue: '100.00', dayCounts: referenceDays }),
    ).toBe(0);
  });

  it('goes negative when less comes back than was lent', () => {
    const r = cetAnnualRate({ netAmount: '100.00', installmentValue: '33.00', dayCounts: [30, 61, 91] });
    expect(r.isNegative()).toBe(true);
    expect(presentValue('33.00', [30, 61, 91], r).minus('100').abs().lt('1e-12')).toBe(true);
  });

  it('handles very high rates', () => {
    const days = [30, 61, 92, 122, 153, 183];
    const r = cetAnnualRate({ netAmount: '1000.00', installmentValue: '600.00', dayCounts: days });
    expect(r.gt(10)).toBe(true);
    expect(presentValue('600.00', days, r).minus('1000').abs().lt('1e-9')).toBe(true);
  });

  it('refuses a net amount of zero or less and due dates on or before disbursement', () => {
    expect(() => cetPercentage({ netAmount: '0.00', installmentValue: '10.00', dayCounts: [30] })).toThrow(
      /above zero/,
    );
    expect(() => cetPercentage({ netAmount: '10.00', installmentValue: '10.00', dayCounts: [0] })).toThrow(
      /after the disbursement/,
    );
    expect(() => cetPercentage({ netAmount: '10.00', installmentValue: '10.00', dayCounts: [] })).toThrow(
      /at least one/,
    );
  });
});

// The plain method the solver started from: Decimal Newton from v = 1 (r = 0), every power made
// anew. The solver must give the same rate, whatever start its float pass chooses.
function referenceRate(net: string, payment: string, days: readonly number[]): Decimal {
  const n = new FinanceDecimal(net);
  const p = new FinanceDecimal(payment);
  const evaluate = (v: Decimal) => {
    let value = n.neg();
    let slope = new FinanceDecimal(0);
    for (const d of days) {
      const term = p.mul(v.pow(d));
      value = value.plus(term);
      slope = slope.plus(term.mul(d).div(v));
    }
    return { value, slope };
  };
  let v = new FinanceDecimal(1);
  for (let k = 1; evaluate(v).value.isNegative(); k += 1)
    v = new FinanceDecimal(2).pow(new FinanceDecimal(k).div(365));
  for (;;) {
    const { value, slope } = evaluate(v);
    const step = value.div(slope);
    v = v.minus(step);
    if (step.abs().lt('1e-20')) return v.pow(-365).minus(1);
  }
}

describe('cetAnnualRate, started from a float solution', () => {
  it('agrees with the plain Decimal method to 1e-15 and to the cent of a percent', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 48 }),
        fc.integer({ min: 28, max: 45 }),
        fc.integer({ min: 10_000, max: 5_000_000 }),
        fc.integer({ min: 70, max: 400 }),
        (count, firstGap, netCents, percentBack) => {
          const days = Array.from({ length: count }, (_, k) => firstGap + k * 30 + (k % 3));
          const net = (netCents / 100).toFixed(2);
          const payment = ((netCents * percentBack) / 100 / 100 / count).toFixed(2);
          if (Number(payment) <= 0) return;
          const rate = cetAnnualRate({ netAmount: net, installmentValue: payment, dayCounts: days });
          const reference = referenceRate(net, payment, days);
          expect(rate.minus(reference).abs().lt('1e-15')).toBe(true);
          expect(round2(rate.mul(100)).toNumber()).toBe(round2(reference.mul(100)).toNumber());
        },
      ),
      { numRuns: 60, seed: 20261127 },
    );
  });
});
