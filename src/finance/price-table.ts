import type { Decimal } from 'decimal.js';
import { type DecimalInput, FinanceDecimal, formatMoney, type Money, round2, toDecimal } from './money.js';
import { percentToFraction } from './rate.js';

/** One installment of a Price (French) amortization schedule. */
export interface AmortizationLine {
  /** 1-based installment number. */
  number: number;
  payment: Money;
  interest: Money;
  principal: Money;
  /** Principal still owed after this installment. */
  balance: Money;
}

/**
 * The fixed installment of the Price table: round2(P·i / (1 − (1+i)^−n)), i the monthly rate as a
 * fraction. With a zero rate it is P/n, rounded to cents.
 */
export function installmentValue(
  principal: DecimalInput,
  monthlyRatePercent: number | string,
  count: number,
): Money {
  return formatMoney(
    installmentValueDecimal(toDecimal(principal), percentToFraction(monthlyRatePercent), count),
  );
}

/** `installmentValue` on Decimals, for callers that keep computing. The result is already rounded to cents. */
export function installmentValueDecimal(principal: Decimal, monthlyRate: Decimal, count: number): Decimal {
  assertLoanTerms(principal, count);
  if (monthlyRate.isZero()) return round2(principal.div(count));
  const one = new FinanceDecimal(1);
  return round2(principal.mul(monthlyRate).div(one.minus(one.plus(monthlyRate).pow(-count))));
}

/**
 * The Price schedule for a fixed `payment`: each line's interest is the balance times the rate,
 * rounded to cents, and the principal is the payment minus that interest. The last line's principal
 * takes whatever balance remains, so the principals add up to P exactly; its interest is then the
 * payment minus that principal, so every payment stays equal (the cents lost to rounding land there).
 */
export function amortizationSchedule(
  principal: DecimalInput,
  monthlyRatePercent: number | string,
  count: number,
  payment: DecimalInput,
): AmortizationLine[] {
  const amount = toDecimal(principal);
  assertLoanTerms(amount, count);
  const rate = percentToFraction(monthlyRatePercent);
  const fixedPayment = round2(toDecimal(payment));
  const lines: AmortizationLine[] = [];
  let balance = amount;
  for (let number = 1; number <= count; number += 1) {
    const isLast = number === count;
    // Rounding the payment up to cents overpays a little each month; at high rates over many
    // months that can retire the balance before the last line. A line never repays more than is
    // left: its principal is capped at the balance and the rest of the payment counts as interest.
    const scheduledPrincipal = isLast ? balance : fixedPayment.minus(round2(balance.mul(rate)));
    const paidPrincipal = FinanceDecimal.min(scheduledPrincipal, balance);
    const interest = fixedPayment.minus(paidPrincipal);
    balance = balance.minus(paidPrincipal);
    lines.push({
      number,
      payment: formatMoney(fixedPayment),
      interest: formatMoney(interest),
      principal: formatMoney(paidPrincipal),
      balance: formatMoney(balance),
    });
  }
  return lines;
}

function assertLoanTerms(principal: Decimal, count: number): void {
  if (principal.lte(0)) {
    throw new RangeError(`Principal must be greater than zero, got ${principal.toString()}.`);
  }
  if (!Number.isInteger(count) || count < 1) {
    throw new RangeError(`Installment count must be a whole number of at least 1, got ${count}.`);
  }
}
