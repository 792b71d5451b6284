import type { Decimal } from 'decimal.js';
import { type DecimalInput, FinanceDecimal, round2, toDecimal } from './money.js';

/** What the CET of an equal-installment loan depends on. */
export interface CetInput {
  /** The net amount the customer receives (requested amount − IOF − fees). */
  netAmount: DecimalInput;
  /** The fixed installment value. */
  installmentValue: DecimalInput;
  /** Calendar days from the disbursement date to each due date. */
  dayCounts: readonly number[];
}

// Newton stops once a step moves v by less than this; r = v^-365 − 1 then moves by under 1e-17,
// far below the 0.005 percentage point that the rounding to 2 decimals can hide.
const TOLERANCE = new FinanceDecimal('1e-20');
const MAX_ITERATIONS = 200;

/**
 * CET (Resolução CMN 4.881/2020) as an annual fraction: the r solving
 * netAmount = Σ_k installmentValue / (1+r)^(d_k/365).
 *
 * Substituting v = (1+r)^(−1/365) turns the equation into a polynomial with integer powers
 * f(v) = Σ pmt·v^d_k − netAmount, increasing and convex for v > 0. Newton's method started to the
 * right of the root then decreases monotonically onto it, so the answer is deterministic and needs
 * no bracket tuning; integer powers keep each step cheap in Decimal.
 */
export function cetAnnualRate(input: CetInput): Decimal {
  const net = toDecimal(input.netAmount);
  const payment = toDecimal(input.installmentValue);
  const days = input.dayCounts;
  if (net.lte(0)) {
    throw new RangeError(
      `CET needs a net amount above zero, got ${net.toString()}: IOF and fees exceed the requested amount.`,
    );
  }
  if (payment.lte(0)) throw new RangeError(`CET needs a positive installment, got ${payment.toString()}.`);
  if (days.length === 0) throw new RangeError('CET needs at least one due date.');
  for (const d of days) {
    if (!Number.isInteger(d) || d < 1)
      throw new RangeError(`Every due date must fall after the disbursement date; got a day count of ${d}.`);
  }

  // Ascending day counts let each power build on the previous one: a few small multiplications
  // instead of one large power per installment.
  const sortedDays = [...days].sort((a, b) => a - b);
  const evaluate = (v: Decimal): { value: Decimal; slope: Decimal } => {
    let value = net.neg();
    let slope = new FinanceDecimal(0);
    let power = new FinanceDecimal(1);
    let previousDay = 0;
    for (const d of sortedDays) {
      power = power.mul(v.pow(d - previousDay));
      previousDay = d;
      const term = payment.mul(power);
      value = value.plus(term);
      slope = slope.plus(term.mul(d).div(v));
    }
    return { value, slope };
  };

  // v = 1 is r = 0. It lies right of the root whenever the installments add up to at least the net
  // amount; otherwise (a negative CET) try r = −50 %, −75 %, ... (v = 2^(k/365)) until it does.
  let v = new FinanceDecimal(1);
  for (let halvings = 1; evaluate(v).value.isNegative(); halvings += 1) {
    v = new FinanceDecimal(2).pow(new FinanceDecimal(halvings).div(365));
  }

  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration += 1) {
    const { value, slope } = evaluate(v);
    const step = value.div(slope);
    v = v.minus(step);
    if (step.abs().lt(TOLERANCE)) return v.pow(-365).minus(1);
  }
  // Only absurd inputs (a CET of millions of percent) get here; better to fail than to guess.
  throw new RangeError(
    `CET did not converge for a net amount ${net.toString()} and installments of ${payment.toString()}; check the loan terms.`,
  );
}

/** CET in percent a year, rounded to 2 decimals, as the JSON number of `cet_percentage` (e.g. 32.14). */
export function cetPercentage(input: CetInput): number {
  // Decimal all the way; the only float is the final, already rounded, value.
  return round2(cetAnnualRate(input).mul(100)).toNumber();
}
