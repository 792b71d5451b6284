import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INDIVIDUAL_TIERS, offerTermsFor } from '../domain/credit/offer-terms.js';
import { chooseCpf, freshCpf, termsServe } from './trigger-cpf.js';

const STARTER_CPF = findCpf('starter');

function findCpf(tier: string): string {
  for (;;) {
    const cpf = freshCpf();
    if (offerTermsFor({ cpf, cnpj: null }).tier === tier) return cpf;
  }
}

describe('trigger: the CPF steers the offer tier to what --set asks', () => {
  it('always picks a CPF whose offer takes amount=5000 installments=6 (the README command)', () => {
    for (let k = 0; k < 200; k += 1) {
      const cpf = chooseCpf(undefined, { amount: '5000.00', installments: 6 });
      const terms = offerTermsFor({ cpf, cnpj: null });
      expect(terms.tier).toBe('plus');
    }
  });

  it('every combination some tier takes gets a CPF whose tier takes it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 300, max: 50_000 }), fc.integer({ min: 1, max: 40 }), (amount, n) => {
        const overrides = { amount: amount.toFixed(2), installments: n };
        const possible = INDIVIDUAL_TIERS.some((terms) => termsServe(terms, overrides));
        if (!possible) {
          expect(() => chooseCpf(undefined, overrides)).toThrow(
            /no offer takes .*starter \(300\.00–3000\.00/,
          );
          return;
        }
        const cpf = chooseCpf(undefined, overrides);
        expect(termsServe(offerTermsFor({ cpf, cnpj: null }), overrides)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('names the tier of a --cpf that cannot serve the values, and keeps one that can', () => {
    expect(() => chooseCpf(STARTER_CPF, { installments: 12 })).toThrow(
      `--cpf ${STARTER_CPF} gets the starter (300.00–3000.00, exactly 6 installments) offer, which does not take installments=12`,
    );
    expect(chooseCpf(STARTER_CPF, { amount: '1000.00', installments: 6 })).toBe(STARTER_CPF);
    expect(chooseCpf(STARTER_CPF, {})).toBe(STARTER_CPF);
  });

  it('without amount or installments any fresh CPF does', () => {
    expect(chooseCpf(undefined, { name: 'Ana' }, () => '12345678909')).toBe('12345678909');
  });
});
