// biome-ignore-all lint/suspicious/noTemplateCurlyInString: scenario files write placeholders as ${…} inside plain strings
import { describe, expect, it } from 'vitest';
import { ScenarioError } from './paths.js';
import { interpolate, resolve, type Scope } from './scope.js';

const scope: Scope = {
  values: {
    params: { n: 3, amount: '100.00', flag: false },
    offer: { id: 'co_1', installments: null, min_installments: 6, approved_amount: '3000.00' },
    list: [{ k: 'a' }, { k: 'b' }],
  },
  random: (name) => `fresh-${name}`,
};

describe('placeholders', () => {
  it('keeps the type of a value when the whole string is one placeholder', () => {
    expect(interpolate('${params.n}', scope)).toBe(3);
    expect(interpolate('${params.flag}', scope)).toBe(false);
    expect(interpolate({ installment_number: '${params.n}', nested: ['${offer.id}'] }, scope)).toEqual({
      installment_number: 3,
      nested: ['co_1'],
    });
  });

  it('writes values as text inside longer strings', () => {
    expect(interpolate('/v3/credit-offers/${offer.id}/simulations?n=${params.n}', scope)).toBe(
      '/v3/credit-offers/co_1/simulations?n=3',
    );
  });

  it('takes the first value of a ?? chain that is neither null nor undefined, or a literal fallback', () => {
    expect(interpolate('${offer.installments ?? offer.min_installments}', scope)).toBe(6);
    expect(interpolate('${offer.nothing ?? 12}', scope)).toBe(12);
    expect(interpolate('${offer.nothing ?? "x"}', scope)).toBe('x');
    expect(interpolate('${offer.installments ?? offer.nothing}', scope)).toBeNull();
  });

  it('draws random values and reads selectors', () => {
    expect(interpolate('${random.cpf}', scope)).toBe('fresh-cpf');
    expect(resolve('list[k=b]', scope)).toEqual({ k: 'b' });
    expect(resolve('list[${params.n}]', scope)).toBeUndefined();
  });

  it('names what is missing and what is there instead', () => {
    expect(() => interpolate('${offer.idd}', scope)).toThrow(
      '"offer.idd" is undefined (offer has: id, installments, min_installments, approved_amount)',
    );
    expect(() => interpolate('${list[5].k}', scope)).toThrow('"list[5].k" is undefined');
    expect(() => interpolate('${loan.id}', scope)).toThrow(
      /nothing is named "loan" here \(known: params, offer, list, random\)/,
    );
    expect(() => interpolate('${random.uuid}', scope)).toThrow(ScenarioError);
  });
});
