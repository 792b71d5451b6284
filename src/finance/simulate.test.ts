import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from './calendar.js';
import { iofCap } from './iof.js';
import { isMoneyString } from './money.js';
import { type LoanTerms, simulateLoan } from './simulate.js';

const reference: LoanTerms = {
  requestedAmount: '10000.00',
  monthlyRatePercent: 2,
  installmentCount: 12,
  simulationDate: '2026-01-15',
  firstDueDate: '2026-02-15',
  borrower: 'individual',
};

describe('simulateLoan: the DESIGN.md reference case', () => {
  const simulation = simulateLoan(reference);

  it('matches every published number to the cent', () => {
    expect(simulation).toMatchObject({
      requested_amount: '10000.00',
      installments_value: '945.60',
      iof_amount: '205.37',
      iof: { flat: '38.00', daily: '167.37', total: '205.37' },
      amount: '9794.63',
      fees_amount: '0.00',
      interest_amount: '1347.20',
      total_loan_amount: '11347.20',
      interest_percentage: 2,
      cet_percentage: 32.14,
      number_of_installments: 12,
      first_due_date: '2026-02-15',
    });
  });

  it('runs the due dates 2026-02-15 ... 2027-01-15, 31 ... 365 days out', () => {
    expect(simulation.due_dates[0]).toBe('2026-02-15');
    expect(simulation.due_dates.at(-1)).toBe('2027-01-15');
    expect(simulation.day_counts).toEqual([31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365]);
  });
});

describe('simulateLoan', () => {
  it('defaults the first due date to the simulation date + 30 days', () => {
    const { firstDueDate: _omitted, ...terms } = reference;
    const simulation = simulateLoan(terms);
    expect(simulation.first_due_date).toBe('2026-02-14');
    expect(simulation.day_counts).toEqual([30, 58, 89, 119, 150, 180, 211, 242, 272, 303, 333, 364]);
    expect(simulation.installments_value).toBe('945.60');
    expect(simulation.iof_amount).toBe('204.55');
    expect(simulation.amount).toBe('9795.45');
    expect(simulation.cet_percentage).toBe(32.32);
  });

  it('takes fees out of the net amount for companies', () => {
    const simulation = simulateLoan({ ...reference, borrower: 'company', feesAmount: '150.00' });
    expect(simulation.fees_amount).toBe('150.00');
    expect(simulation.iof_amount).toBe('205.37');
    expect(simulation.amount).toBe('9644.63');
    expect(simulation.total_loan_amount).toBe('11347.20');
    expect(simulation.cet_percentage).toBeGreaterThan(32.14);
  });

  it('gives Simples / MEI the reduced IOF', () => {
    expect(simulateLoan({ ...reference, borrower: 'simples_mei' }).iof_amount).toBe('93.92');
  });

  it('refuses fees for individuals, malformed amounts and due dates not after the simulation', () => {
    expect(() => simulateLoan({ ...reference, feesAmount: '10.00' })).toThrow(
      /Individuals may not be charged fees/,
    );
    expect(() => simulateLoan({ ...reference, requestedAmount: '10000' })).toThrow(/2 places/);
    expect(() => simulateLoan({ ...reference, firstDueDate: '2026-01-15' })).toThrow(
      /after the simulation date/,
    );
    expect(() => simulateLoan({ ...reference, simulationDate: '15/01/2026' })).toThrow(/YYYY-MM-DD/);
    expect(() => simulateLoan({ ...reference, borrower: 'company', feesAmount: '9900.00' })).toThrow(
      /nothing of 10000.00/,
    );
  });
});

describe('simulateLoan properties', () => {
  const terms = fc.record({
    cents: fc.integer({ min: 10_000, max: 50_000_000 }),
    rateHundredths: fc.integer({ min: 50, max: 1500 }),
    count: fc.integer({ min: 1, max: 48 }),
    dayOffset: fc.integer({ min: 0, max: 3650 }),
    borrower: fc.constantFrom('individual' as const, 'company' as const, 'simples_mei' as const),
  });

  it('keeps every identity of the Simulation resource', () => {
    fc.assert(
      fc.property(terms, ({ cents, rateHundredths, count, dayOffset, borrower }) => {
        const requestedAmount = new Decimal(cents).div(100).toFixed(2);
        const rate = new Decimal(rateHundredths).div(100);
        const s = simulateLoan({
          requestedAmount,
          monthlyRatePercent: rate.toNumber(),
          installmentCount: count,
          simulationDate: addDays('2025-01-01', dayOffset),
          borrower,
        });
        const sum = (...values: string[]) =>
          values.reduce((acc, v) => acc.plus(v), new Decimal(0)).toFixed(2);

        for (const value of [
          s.requested_amount,
          s.amount,
          s.interest_amount,
          s.fees_amount,
          s.iof_amount,
          s.total_loan_amount,
          s.installments_value,
        ]) {
          expect(isMoneyString(value)).toBe(true);
        }
        expect(s.requested_amount).toBe(requestedAmount);
        expect(s.total_loan_amount).toBe(new Decimal(s.installments_value).mul(count).toFixed(2));
        expect(s.total_loan_amount).toBe(sum(s.amount, s.interest_amount, s.fees_amount, s.iof_amount));
        expect(sum(s.amount, s.fees_amount, s.iof_amount)).toBe(requestedAmount);
        expect(sum(...s.schedule.map((line) => line.principal))).toBe(requestedAmount);
        expect(new Decimal(s.iof_amount).lte(iofCap(requestedAmount, borrower))).toBe(true);
        expect(Number(s.iof_amount)).toBeGreaterThan(0);
        expect(s.due_dates).toHaveLength(count);
        expect(s.day_counts[0]).toBe(30);

        // With IOF and no fees the CET must exceed the nominal rate compounded over 12 months.
        const nominal = rate.div(100).plus(1).pow(12).minus(1).mul(100);
        expect(new Decimal(s.cet_percentage).gt(nominal)).toBe(true);
        expect(Number.isFinite(s.cet_percentage)).toBe(true);
        expect(new Decimal(s.cet_percentage).decimalPlaces()).toBeLessThanOrEqual(2);
      }),
      { numRuns: 200 },
    );
  });
});
