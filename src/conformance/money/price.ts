// The Price table (French amortisation system): equal installments
// PMT = P·i / (1 − (1 + i)^−n), rounded to the cent, each split into interest on the balance
// (rounded to the cent) and amortisation; the last line amortises what is left.
import { Decimal } from 'decimal.js';

const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });

export { D as KitDecimal };

/** Half up to the cent. */
export function cents(value: Decimal.Value): Decimal {
  return new D(value).toDecimalPlaces(2, D.ROUND_HALF_UP);
}

/** The installment of `principal` at `monthlyRate` (a fraction: 0.02) over `n` months. */
export function installmentValue(principal: Decimal.Value, monthlyRate: Decimal.Value, n: number): Decimal {
  const p = new D(principal);
  const i = new D(monthlyRate);
  if (i.isZero()) return cents(p.div(n));
  return cents(p.mul(i).div(new D(1).minus(i.plus(1).pow(-n))));
}

/** The amortisation (principal part) of each installment of the schedule. */
export function amortisations(principal: Decimal.Value, monthlyRate: Decimal.Value, n: number): Decimal[] {
  const pmt = installmentValue(principal, monthlyRate, n);
  let balance = new D(principal);
  const parts: Decimal[] = [];
  for (let k = 1; k <= n; k++) {
    const interest = cents(balance.mul(monthlyRate));
    const part = k === n ? balance : pmt.minus(interest);
    parts.push(part);
    balance = balance.minus(part);
  }
  return parts;
}
