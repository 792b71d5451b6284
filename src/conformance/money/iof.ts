// IOF on credit (Decreto 6.306/2007, art. 7, as amended in June 2025): a flat 0.38 % of the
// principal plus a daily rate on each amortisation for the days until it falls due, at most 365.
// Daily rate 0.0082 % for individuals and companies, 0.00274 % for Simples Nacional companies
// (MEI among them) on operations up to R$ 30,000.00. Summed unrounded, rounded once.
import type { Decimal } from 'decimal.js';
import { daysBetween } from './dates.js';
import { amortisations, cents, KitDecimal as D } from './price.js';

export type Borrower = 'individual' | 'simples';

const FLAT = new D('0.0038');
const DAILY_INDIVIDUAL = new D('0.000082');
const DAILY_SIMPLES = new D('0.0000274');
const SIMPLES_CEILING = new D('30000.00');

export function dailyIofRate(borrower: Borrower, principal: Decimal.Value): Decimal {
  return borrower === 'simples' && new D(principal).lte(SIMPLES_CEILING) ? DAILY_SIMPLES : DAILY_INDIVIDUAL;
}

export function iof(
  principal: Decimal.Value,
  monthlyRate: Decimal.Value,
  disbursedOn: string,
  due: readonly string[],
  borrower: Borrower,
): Decimal {
  const daily = dailyIofRate(borrower, principal);
  const parts = amortisations(principal, monthlyRate, due.length);
  let total = new D(principal).mul(FLAT);
  parts.forEach((part, k) => {
    const days = Math.min(daysBetween(disbursedOn, due[k] as string), 365);
    total = total.plus(part.mul(daily).mul(days));
  });
  return cents(total);
}
