import { type DecimalInput, formatMoney, type Money, round2, toDecimal } from './money.js';

/** Late-payment fine, charged once: 2 % of the unpaid amount. */
export const LATE_FINE_RATE = '0.02';
/** Default interest: 1 % a month, charged pro rata die over 30-day months. */
export const DEFAULT_INTEREST_MONTHLY_RATE = '0.01';

/** What an overdue installment owes on top of `amount_due`, shown apart from it. */
export interface LateCharges {
  fine: Money;
  interest: Money;
  total: Money;
}

/**
 * Late charges of an overdue installment: a 2 % fine once plus default interest of 1 % a month pro
 * rata die (1 %/30 a day overdue), each rounded to cents; all zero while the installment is not
 * overdue (`daysOverdue` 0).
 */
export function lateCharges(unpaidAmount: DecimalInput, daysOverdue: number): LateCharges {
  if (!Number.isInteger(daysOverdue) || daysOverdue < 0) {
    throw new RangeError(`days overdue must be a whole number of days, 0 or more; got ${daysOverdue}.`);
  }
  const unpaid = toDecimal(unpaidAmount);
  if (unpaid.lt(0)) throw new RangeError(`Unpaid amount must not be negative, got ${unpaid.toString()}.`);
  if (daysOverdue === 0 || unpaid.isZero()) return { fine: '0.00', interest: '0.00', total: '0.00' };
  const fine = round2(unpaid.mul(LATE_FINE_RATE));
  const interest = round2(unpaid.mul(DEFAULT_INTEREST_MONTHLY_RATE).mul(daysOverdue).div(30));
  return {
    fine: formatMoney(fine),
    interest: formatMoney(interest),
    total: formatMoney(fine.plus(interest)),
  };
}
