import type { Decimal } from 'decimal.js';
import { type DecimalInput, FinanceDecimal, formatMoney, type Money, toDecimal } from './money.js';

/** Who borrows, as far as IOF is concerned. `simples_mei`: a Simples Nacional or MEI company. */
export type Borrower = 'individual' | 'company' | 'simples_mei';

/** Flat IOF on the principal: 0.38 %. */
export const IOF_FLAT_RATE = '0.0038';
/** Daily IOF for individuals and companies: 0.0082 % (Decreto 6.306/2007 as amended in June 2025). */
export const IOF_DAILY_RATE = '0.000082';
/** Daily IOF for Simples Nacional / MEI companies on operations up to R$ 30,000.00: 0.00274 %. */
export const IOF_DAILY_RATE_SIMPLES = '0.0000274';
/** Ceiling of the reduced Simples / MEI daily rate, inclusive. */
export const IOF_SIMPLES_LIMIT = '30000.00';
/** The daily part stops growing after 365 days. */
export const IOF_MAX_DAYS = 365;

/** What the IOF of a Price-table loan depends on. */
export interface IofInput {
  /** P, the requested amount. */
  principal: DecimalInput;
  /** A_k, the principal part of each installment (they add up to P). */
  principals: readonly DecimalInput[];
  /** d_k, calendar days from the disbursement date to each due date. */
  dayCounts: readonly number[];
  borrower: Borrower;
}

/** The IOF and its two parts. `total` is rounded once from the unrounded parts, so it may differ by a cent from `flat + daily`. */
export interface IofBreakdown {
  flat: Money;
  daily: Money;
  total: Money;
}

/** Daily IOF rate (a fraction) for this borrower and operation size. */
export function iofDailyRate(borrower: Borrower, principal: DecimalInput): Decimal {
  // Above R$ 30,000.00 a Simples / MEI company pays the general rate on the whole operation.
  const reduced = borrower === 'simples_mei' && toDecimal(principal).lte(IOF_SIMPLES_LIMIT);
  return new FinanceDecimal(reduced ? IOF_DAILY_RATE_SIMPLES : IOF_DAILY_RATE);
}

/** iof_amount = round2(P·0.38 % + Σ A_k·daily·min(d_k, 365)), summed unrounded and rounded once. */
export function iofAmount(input: IofInput): Money {
  return iofBreakdown(input).total;
}

/** The IOF with its flat and daily parts, each rounded to cents for display. */
export function iofBreakdown(input: IofInput): IofBreakdown {
  if (input.principals.length !== input.dayCounts.length) {
    throw new RangeError(
      `IOF needs one day count per installment principal; got ${input.principals.length} principals and ${input.dayCounts.length} day counts.`,
    );
  }
  const principal = toDecimal(input.principal);
  const rate = iofDailyRate(input.borrower, principal);
  const flat = principal.mul(IOF_FLAT_RATE);
  let daily = new FinanceDecimal(0);
  input.principals.forEach((part, k) => {
    const days = input.dayCounts[k] ?? 0;
    if (!Number.isInteger(days) || days < 0) {
      throw new RangeError(
        `Day count ${days} of installment ${k + 1} must be a whole number of days, not negative.`,
      );
    }
    daily = daily.plus(toDecimal(part).mul(rate).mul(Math.min(days, IOF_MAX_DAYS)));
  });
  return { flat: formatMoney(flat), daily: formatMoney(daily), total: formatMoney(flat.plus(daily)) };
}

/**
 * The most IOF a loan of `principal` can carry: every installment counted at 365 days. Since the
 * principals add up to P this is round2(P·(0.38 % + daily·365)), whatever the schedule.
 */
export function iofCap(principal: DecimalInput, borrower: Borrower): Money {
  const amount = toDecimal(principal);
  const rate = iofDailyRate(borrower, amount);
  return formatMoney(amount.mul(IOF_FLAT_RATE).plus(amount.mul(rate).mul(IOF_MAX_DAYS)));
}
