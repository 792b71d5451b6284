import { randomInt } from 'node:crypto';
import { Decimal } from 'decimal.js';
import { INDIVIDUAL_TIERS, offerTermsFor } from '../domain/credit/offer-terms.js';
import { magicBehaviour } from '../domain/magic-profiles.js';
import { generateCpf } from '../finance/cpf.js';
import { UsageError } from './context.js';
import type { Overrides } from './trigger-overrides.js';

type Terms = (typeof INDIVIDUAL_TIERS)[number];

/** How many fresh CPFs to draw before giving up (a tier takes about one CPF in four). */
const MAX_DRAWS = 500;

/** Whether an offer of these terms accepts the `--set amount/installments` overrides. */
export function termsServe(terms: Terms, overrides: Overrides): boolean {
  const { amount, installments } = overrides;
  if (amount !== undefined) {
    const value = new Decimal(amount);
    if (value.lt(terms.min_amount) || value.gt(terms.approved_amount)) return false;
  }
  if (installments !== undefined) {
    const min = terms.installments ?? terms.min_installments ?? 0;
    const max = terms.installments ?? terms.max_installments ?? 0;
    if (installments < min || installments > max) return false;
  }
  return true;
}

/** "starter (300.00–3000.00, exactly 6 installments)" */
export function describeTerms(terms: Terms): string {
  const count =
    terms.installments !== null
      ? `exactly ${terms.installments} installments`
      : `${terms.min_installments}–${terms.max_installments} installments`;
  return `${terms.tier} (${terms.min_amount}–${terms.approved_amount}, ${count})`;
}

/**
 * The CPF a trigger run registers. The CPF decides the offer tier (offer-terms.ts), so with
 * `--set amount` or `--set installments` a fresh CPF is drawn until its tier's offer accepts them;
 * a `--cpf` whose tier cannot serve them, or values no tier takes, is a usage error that names the
 * tiers instead of a 422 halfway through the journey.
 */
export function chooseCpf(cpf: string | undefined, overrides: Overrides, draw = freshCpf): string {
  const steering = overrides.amount !== undefined || overrides.installments !== undefined;
  const asked = [
    overrides.amount !== undefined ? `amount=${overrides.amount}` : '',
    overrides.installments !== undefined ? `installments=${overrides.installments}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  if (cpf !== undefined) {
    const digits = cpf.replace(/\D/g, '');
    if (!steering || digits.length !== 11) return cpf;
    const terms = offerTermsFor({ cpf: digits, cnpj: null }, magicBehaviour(digits));
    if (termsServe(terms, overrides)) return cpf;
    throw new UsageError(
      `--cpf ${cpf} gets the ${describeTerms(terms)} offer, which does not take ${asked}; ` +
        `leave out --cpf and a CPF whose offer does is chosen`,
    );
  }
  if (!steering) return draw();
  if (!INDIVIDUAL_TIERS.some((terms) => termsServe(terms, overrides))) {
    throw new UsageError(
      `no offer takes ${asked}. Offers by tier: ${INDIVIDUAL_TIERS.map(describeTerms).join('; ')}`,
    );
  }
  for (let k = 0; k < MAX_DRAWS; k += 1) {
    const candidate = draw();
    if (termsServe(offerTermsFor({ cpf: candidate, cnpj: null }), overrides)) return candidate;
  }
  throw new Error(`no CPF with an offer for ${asked} in ${MAX_DRAWS} draws`);
}

/** A valid CPF outside the magic-profile range (first digit 1-9). */
export function freshCpf(): string {
  const base = `${randomInt(1, 10)}${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
  return generateCpf(base);
}
