import type { Decimal } from 'decimal.js';
import { FinanceDecimal } from './money.js';

/**
 * Converts a percentage (2 or "2" for 2 %) to a fraction `Decimal` (0.02). Rates arrive as JSON
 * numbers in the API; a number is read through its shortest decimal representation, so 1.99 stays
 * exactly 1.99.
 */
export function percentToFraction(percent: number | string): Decimal {
  if (typeof percent === 'number' && !Number.isFinite(percent)) {
    throw new RangeError(`Rate ${percent} is not a finite percentage; send e.g. 1.99 for 1.99 % a month.`);
  }
  let value: Decimal;
  try {
    value = new FinanceDecimal(typeof percent === 'number' ? String(percent) : percent);
  } catch {
    throw new RangeError(`Rate "${percent}" is not a number; send e.g. 1.99 for 1.99 % a month.`);
  }
  if (value.lt(0) || !value.isFinite()) {
    throw new RangeError(`Rate ${percent} must be a non-negative percentage, e.g. 1.99 for 1.99 % a month.`);
  }
  return value.div(100);
}
