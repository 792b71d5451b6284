import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { iofAmount, iofBreakdown, iofCap, iofDailyRate } from './iof.js';

const referencePrincipals = [
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
];
const referenceDays = [31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365];

describe('iofBreakdown', () => {
  it('gives the reference case for an individual: 38.00 flat + 167.37 daily = 205.37', () => {
    const input = {
      principal: '10000.00',
      principals: referencePrincipals,
      dayCounts: referenceDays,
      borrower: 'individual' as const,
    };
    expect(iofBreakdown(input)).toEqual({ flat: '38.00', daily: '167.37', total: '205.37' });
    expect(iofAmount(input)).toBe('205.37');
    expect(iofBreakdown({ ...input, borrower: 'company' }).total).toBe('205.37');
  });

  it('charges Simples / MEI the reduced daily rate up to R$ 30,000.00', () => {
    const input = {
      principal: '10000.00',
      principals: referencePrincipals,
      dayCounts: referenceDays,
      borrower: 'simples_mei' as const,
    };
    // 167.3652185 * 0.00274 / 0.0082 = 55.924...
    expect(iofBreakdown(input)).toEqual({ flat: '38.00', daily: '55.92', total: '93.92' });
  });

  it('switches Simples / MEI to the general rate above R$ 30,000.00', () => {
    expect(iofDailyRate('simples_mei', '30000.00').toString()).toBe('0.0000274');
    expect(iofDailyRate('simples_mei', '30000.01').toString()).toBe('0.000082');
    expect(iofDailyRate('company', '100.00').toString()).toBe('0.000082');
  });

  it('rounds once, from the unrounded parts', () => {
    // flat 0.0038 * 1.30 = 0.00494 and daily 1.30 * 0.000082 * 1 = 0.0001066: each part rounds to
    // 0.00, their sum 0.0050466 rounds to 0.01.
    expect(
      iofBreakdown({ principal: '1.30', principals: ['1.30'], dayCounts: [1], borrower: 'individual' }),
    ).toEqual({
      flat: '0.00',
      daily: '0.00',
      total: '0.01',
    });
  });

  it('stops counting days at 365', () => {
    const long = iofAmount({
      principal: '1000.00',
      principals: ['1000.00'],
      dayCounts: [730],
      borrower: 'individual',
    });
    expect(long).toBe(iofCap('1000.00', 'individual'));
    expect(long).toBe('33.73'); // 3.80 + 1000 * 0.000082 * 365 = 3.80 + 29.93
  });

  it('refuses mismatched or negative day counts', () => {
    expect(() =>
      iofAmount({ principal: '10.00', principals: ['10.00'], dayCounts: [], borrower: 'individual' }),
    ).toThrow(/one day count per installment/);
    expect(() =>
      iofAmount({ principal: '10.00', principals: ['10.00'], dayCounts: [-1], borrower: 'individual' }),
    ).toThrow(/not negative/);
  });
});

describe('iofCap', () => {
  it('is P * (0.38 % + daily * 365)', () => {
    expect(iofCap('10000.00', 'individual')).toBe(
      new Decimal('10000').mul('0.0038').plus(new Decimal('10000').mul('0.02993')).toFixed(2),
    );
    expect(iofCap('10000.00', 'individual')).toBe('337.30');
    expect(iofCap('10000.00', 'simples_mei')).toBe('138.01');
  });
});
