import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isBusinessDay, nextBusinessDay } from './business-days.js';
import { dueDates, plusMonths, saoPauloDate } from './dates.js';
import { amortisations, installmentValue } from './price.js';
import { expectedSimulation } from './simulation.js';

describe("the kit's own credit arithmetic", () => {
  it('reproduces the reference case: 10,000.00 at 2 % a month in 12 installments from 2026-01-15', () => {
    const expected = expectedSimulation({
      requestedAmount: '10000.00',
      interestRate: 2,
      installments: 12,
      firstDueDate: '2026-02-15',
      simulatedAt: '2026-01-15T15:00:00Z',
      feesAmount: '0.00',
      borrower: 'individual',
    });
    expect(expected).toEqual({
      installments_value: '945.60',
      interest_amount: '1347.20',
      iof_amount: '205.37',
      amount: '9794.63',
      total_loan_amount: '11347.20',
      cet_percentage: 32.14,
    });
  });

  it('uses the Simples Nacional daily rate up to R$ 30,000.00 and the ordinary one above', () => {
    const base = {
      interestRate: 2,
      installments: 12,
      firstDueDate: '2026-02-15',
      simulatedAt: '2026-01-15T15:00:00Z',
      feesAmount: '0.00',
    };
    const simples = expectedSimulation({ ...base, requestedAmount: '10000.00', borrower: 'simples' });
    // 38.00 flat + the unrounded daily part (167.366…) × 0.00274 / 0.0082
    expect(simples.iof_amount).toBe('93.92');
    const above = expectedSimulation({ ...base, requestedAmount: '30000.01', borrower: 'simples' });
    const individual = expectedSimulation({ ...base, requestedAmount: '30000.01', borrower: 'individual' });
    expect(above.iof_amount).toBe(individual.iof_amount);
  });

  it('amortises exactly the principal, whatever the terms', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 10_000_000 }),
        fc.integer({ min: 50, max: 3000 }),
        fc.integer({ min: 1, max: 120 }),
        (cents, bp, n) => {
          const principal = (cents / 100).toFixed(2);
          const parts = amortisations(principal, bp / 10_000, n);
          const sum = parts.reduce((a, b) => a.plus(b), parts[0]!.minus(parts[0]!));
          expect(sum.toFixed(2)).toBe(principal);
          expect(installmentValue(principal, bp / 10_000, n).gt(0)).toBe(true);
        },
      ),
    );
  });

  it('counts São Paulo days and monthly due dates clamped to the month end', () => {
    expect(saoPauloDate('2026-03-02T01:00:00Z')).toBe('2026-03-01');
    expect(plusMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(dueDates('2026-01-31', 3)).toEqual(['2026-01-31', '2026-02-28', '2026-03-31']);
  });

  it('knows the banking calendar: weekends, national and bank holidays', () => {
    expect(isBusinessDay('2026-02-16')).toBe(false); // Carnival Monday
    expect(isBusinessDay('2026-02-18')).toBe(true); // Ash Wednesday: banks open at noon
    expect(isBusinessDay('2026-06-04')).toBe(false); // Corpus Christi
    expect(nextBusinessDay('2026-02-14')).toBe('2026-02-18');
    expect(nextBusinessDay('2026-03-02')).toBe('2026-03-02');
  });
});
