import { Decimal } from 'decimal.js';

/** An amount of BRL as a decimal string with exactly 2 places, e.g. "10000.00". */
export type Money = string;

/** What the finance functions accept for an amount: a decimal string or a `Decimal`, never a float. */
export type DecimalInput = string | Decimal;

/**
 * The Decimal constructor of the finance module. A private clone, so that a `Decimal.set()` made
 * anywhere else in the process cannot change our precision or rounding; 40 significant digits leave
 * ample room for rates raised to fractional powers before the single rounding to cents.
 */
export const FinanceDecimal = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });

const MONEY_PATTERN = /^(0|[1-9]\d*)\.\d{2}$/;
const DECIMAL_PATTERN = /^-?(0|[1-9]\d*)(\.\d+)?$/;

/** True for a non-negative decimal string with exactly 2 places: "0.00", "10000.00"; not "01.00", "1e3", "-1.00". */
export function isMoneyString(value: string): boolean {
  return MONEY_PATTERN.test(value);
}

/**
 * Converts a plain decimal string ("10000", "945.6", "-0.01") or a `Decimal` to a finance `Decimal`.
 * Exponents, signs other than a leading minus, blanks and numbers are refused: binary floats must
 * never reach money arithmetic.
 */
export function toDecimal(value: DecimalInput): Decimal {
  if (typeof value === 'string') {
    if (!DECIMAL_PATTERN.test(value)) {
      throw new RangeError(
        `"${value}" is not a decimal amount; write it like "1234.56" (no exponent, no thousands separator).`,
      );
    }
    return new FinanceDecimal(value);
  }
  if (!value.isFinite()) throw new RangeError(`Amount ${value.toString()} is not finite.`);
  return new FinanceDecimal(value);
}

/** Rounds to cents, half up (0.005 -> 0.01). The only place in the finance code where money is rounded. */
export function round2(value: Decimal): Decimal {
  const rounded = new FinanceDecimal(value).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  // "-0.00" must never reach a response.
  return rounded.isZero() ? new FinanceDecimal(0) : rounded;
}

/** Formats an amount as a string with exactly 2 decimals, rounding half up to cents first. */
export function formatMoney(value: Decimal): Money {
  return round2(value).toFixed(2);
}
