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
// From a float start, one Decimal step this small already lands within 4e-23 (see below).
const QUADRATIC_EXIT = new FinanceDecimal('1e-13');
// The bound behind QUADRATIC_EXIT holds for day counts up to this (ten years and a bit).
const MAX_QUADRATIC_DAYS = 3720;

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
  // instead of one large power per installment; the gaps repeat (28 to 31 days), so each distinct
  // gap's power is made once per evaluation.
  const sortedDays = [...days].sort((a, b) => a - b);
  const evaluate = (v: Decimal): { value: Decimal; slope: Decimal } => {
    let value = net.neg();
    let slope = new FinanceDecimal(0);
    let power = new FinanceDecimal(1);
    let previousDay = 0;
    const gapPowers = new Map<number, Decimal>();
    for (const d of sortedDays) {
      const gap = d - previousDay;
      let gapPower = gapPowers.get(gap);
      if (gapPower === undefined) {
        gapPower = v.pow(gap);
        gapPowers.set(gap, gapPower);
      }
      power = power.mul(gapPower);
      previousDay = d;
      const term = payment.mul(power);
      value = value.plus(term);
      slope = slope.plus(term.mul(d));
    }
    // Σ term·d / v: the one division of an evaluation.
    return { value, slope: slope.div(v) };
  };

  // Newton in binary floating point first, then in Decimal from where it stopped: a start this
  // close takes Decimal one or two steps to the tolerance instead of six to ten. The Decimal steps
  // decide the answer; the float only chooses where they begin (from v = 1 when it fails).
  const start =
    (sortedDays[sortedDays.length - 1] as number) <= MAX_QUADRATIC_DAYS
      ? floatStart(net.toNumber(), payment.toNumber(), sortedDays)
      : undefined;
  const fromFloat = start !== undefined;
  let v = new FinanceDecimal(start ?? 1);
  if (!fromFloat) {
    // v = 1 is r = 0. It lies right of the root whenever the installments add up to at least the
    // net amount; otherwise (a negative CET) try r = −50 %, −75 %, ... (v = 2^(k/365)).
    for (let halvings = 1; evaluate(v).value.isNegative(); halvings += 1) {
      v = new FinanceDecimal(2).pow(new FinanceDecimal(halvings).div(365));
    }
  }

  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration += 1) {
    const { value, slope } = evaluate(v);
    const step = value.div(slope);
    v = v.minus(step);
    // Newton's error after a step of s is at most C·s² with C = f''/2f' ≤ the longest day count
    // (3,720 for 120 monthly installments): a step under 1e-13 leaves v within 4e-23 of the root,
    // closer than the step under TOLERANCE would have (what the next evaluation would show).
    if (step.abs().lt(TOLERANCE) || (iteration === 0 && fromFloat && step.abs().lt(QUADRATIC_EXIT))) {
      return v.pow(-365).minus(1);
    }
  }
  // Only absurd inputs (a CET of millions of percent) get here; better to fail than to guess.
  throw new RangeError(
    `CET did not converge for a net amount ${net.toString()} and installments of ${payment.toString()}; check the loan terms.`,
  );
}

/**
 * The root of f(v) = Σ payment·v^d − net by Newton's method in doubles (the same start and steps
 * as the Decimal solution), or undefined when it does not settle (extreme terms).
 */
function floatStart(net: number, payment: number, days: readonly number[]): number | undefined {
  const f = (v: number) => {
    let value = -net;
    let slope = 0;
    for (const d of days) {
      const term = payment * v ** d;
      value += term;
      slope += (term * d) / v;
    }
    return { value, slope };
  };
  let v = 1;
  for (let halvings = 1; f(v).value < 0; halvings += 1) {
    if (halvings > 64) return undefined;
    v = 2 ** (halvings / 365);
  }
  for (let iteration = 0; iteration < 100; iteration += 1) {
    const { value, slope } = f(v);
    const step = value / slope;
    if (!Number.isFinite(step)) return undefined;
    v -= step;
    if (Math.abs(step) < 1e-15 * v) return v > 0 && Number.isFinite(v) ? v : undefined;
  }
  return undefined;
}

/** CET in percent a year, rounded to 2 decimals, as the JSON number of `cet_percentage` (e.g. 32.14). */
export function cetPercentage(input: CetInput): number {
  // Decimal all the way; the only float is the final, already rounded, value.
  return round2(cetAnnualRate(input).mul(100)).toNumber();
}
