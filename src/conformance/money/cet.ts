// CET, the total effective cost (Resolução CMN 4.881/2020): the annual rate r at which the
// installments, discounted to the disbursement date by (1 + r)^(days/365), are worth what the
// customer actually receives. In percent a year, 2 decimals.
import type { Decimal } from 'decimal.js';
import { daysBetween } from './dates.js';
import { KitDecimal as D } from './price.js';

/** The present value of the installments at annual rate `r`. */
function presentValue(r: Decimal, installment: Decimal, years: readonly Decimal[]): Decimal {
  const base = r.plus(1);
  return years.reduce((sum, t) => sum.plus(installment.div(base.pow(t))), new D(0));
}

export function cetPercent(
  received: Decimal.Value,
  installment: Decimal.Value,
  disbursedOn: string,
  due: readonly string[],
): number {
  const target = new D(received);
  const pmt = new D(installment);
  const years = due.map((date) => new D(daysBetween(disbursedOn, date)).div(365));
  // Present value falls as r rises: bisect between 0 % and 10,000 % a year.
  let low = new D(-0.99);
  let high = new D(100);
  for (let step = 0; step < 200; step++) {
    const mid = low.plus(high).div(2);
    if (presentValue(mid, pmt, years).gt(target)) low = mid;
    else high = mid;
    if (high.minus(low).lt('1e-14')) break;
  }
  return low.plus(high).div(2).mul(100).toDecimalPlaces(2, D.ROUND_HALF_UP).toNumber();
}
