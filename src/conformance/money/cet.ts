// CET, the total effective cost (Resolução CMN 4.881/2020): the annual rate r at which the
// installments, discounted to the disbursement date by (1 + r)^(days/365), are worth what the
// customer actually receives. In percent a year, 2 decimals (half up).
//
// The root is found in binary floating point: the answer needs 4 significant digits of a rate,
// far inside a double's 15, and the amounts going in are exact cents.
import type { Decimal } from 'decimal.js';
import { daysBetween } from './dates.js';
import { KitDecimal as D } from './price.js';

export function cetPercent(
  received: Decimal.Value,
  installment: Decimal.Value,
  disbursedOn: string,
  due: readonly string[],
): number {
  const target = Number(received);
  const pmt = Number(installment);
  const years = due.map((date) => daysBetween(disbursedOn, date) / 365);
  const presentValue = (r: number) => years.reduce((sum, t) => sum + pmt / (1 + r) ** t, 0);
  // Present value falls as r rises: bisect between −99 % and 10,000 % a year.
  let low = -0.99;
  let high = 100;
  for (let step = 0; step < 200 && high - low > 1e-15; step++) {
    const mid = (low + high) / 2;
    if (presentValue(mid) > target) low = mid;
    else high = mid;
  }
  return new D((low + high) / 2).mul(100).toDecimalPlaces(2, D.ROUND_HALF_UP).toNumber();
}
