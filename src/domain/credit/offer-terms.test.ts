import { describe, expect, it } from 'vitest';
import { generateCpf } from '../../finance/index.js';
import { firstDueDateFor, INDIVIDUAL_TIERS, MEI_TIERS, offerTermsFor } from './offer-terms.js';

const cpfs = Array.from({ length: 200 }, (_, k) => generateCpf(String(100_000_000 + k * 7919).slice(0, 9)));

describe('offer terms', () => {
  it('derives the same terms from the same profile', () => {
    for (const cpf of cpfs.slice(0, 20)) {
      expect(offerTermsFor({ cpf, cnpj: null })).toEqual(offerTermsFor({ cpf, cnpj: null }));
    }
  });

  it('spreads customers over every tier', () => {
    const seen = new Set(cpfs.map((cpf) => offerTermsFor({ cpf, cnpj: null }).tier));
    expect([...seen].sort()).toEqual(INDIVIDUAL_TIERS.map((t) => t.tier).sort());
    const mei = new Set(cpfs.map((cpf) => offerTermsFor({ cpf, cnpj: '11222333000181' }).tier));
    expect([...mei].sort()).toEqual(MEI_TIERS.map((t) => t.tier).sort());
  });

  it('never charges individuals a fee and prices MEI as Simples Nacional with a fee', () => {
    for (const cpf of cpfs) {
      const individual = offerTermsFor({ cpf, cnpj: null });
      expect(individual.borrower).toBe('individual');
      expect(individual.fee_percentage).toBe('0.00');
      const mei = offerTermsFor({ cpf, cnpj: '11222333000181' });
      expect(mei.borrower).toBe('simples_mei');
      expect(Number(mei.fee_percentage)).toBeGreaterThan(0);
    }
  });

  it('sets exactly one installment shape', () => {
    for (const tier of [...INDIVIDUAL_TIERS, ...MEI_TIERS]) {
      const fixed = tier.installments !== null;
      const range = tier.min_installments !== null && tier.max_installments !== null;
      expect(fixed !== range, tier.tier).toBe(true);
      if (range) expect(tier.min_installments as number).toBeLessThan(tier.max_installments as number);
      expect(Number(tier.min_amount)).toBeLessThan(Number(tier.approved_amount));
    }
  });

  it('gives the installment_range profile a min/max range', () => {
    for (const cnpj of [null, '11222333000181']) {
      const terms = offerTermsFor({ cpf: '00000000949', cnpj }, 'installment_range');
      expect(terms.installments).toBeNull();
      expect(terms.min_installments).toBeGreaterThan(0);
      expect(terms.max_installments).toBeGreaterThan(terms.min_installments as number);
    }
  });

  it.each([
    ['12345600209', null, 'starter'],
    ['12345600705', null, 'standard'],
    ['12345600110', null, 'plus'],
    ['12345601515', null, 'premium'],
    ['12345600110', '11222333000181', 'mei_essential'],
    ['12345600209', '11222333000181', 'mei_growth'],
    ['12345600705', '11222333000181', 'mei_capital'],
  ])('puts the documented example CPF %s (cnpj %s) in tier %s', (cpf, cnpj, tier) => {
    expect(offerTermsFor({ cpf, cnpj }).tier).toBe(tier);
  });
});

describe('due-date rules', () => {
  it('null: the first installment is due 30 days after the simulation', () => {
    expect(firstDueDateFor(null, '2026-01-15')).toBe('2026-02-14');
    expect(firstDueDateFor(null, '2026-12-10')).toBe('2027-01-09');
  });

  it('same_day_next_month: the same day of the next month, clamped to its end', () => {
    expect(firstDueDateFor('same_day_next_month', '2026-01-15')).toBe('2026-02-15');
    expect(firstDueDateFor('same_day_next_month', '2026-01-31')).toBe('2026-02-28');
    expect(firstDueDateFor('same_day_next_month', '2028-01-30')).toBe('2028-02-29');
    expect(firstDueDateFor('same_day_next_month', '2026-12-31')).toBe('2027-01-31');
  });
});
