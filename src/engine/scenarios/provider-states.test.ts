import { describe, expect, it } from 'vitest';
import {
  flattenCaptures,
  providerStateClashes,
  providerStateIndex,
  unknownStateMessage,
} from './provider-states.js';
import type { Scenario } from './types.js';

const scenario = (name: string, providerStates: string[]): Scenario => ({
  name,
  description: name,
  file: `${name}.yaml`,
  params: [],
  steps: [],
  providerStates,
});

describe('provider states', () => {
  it('flattens captures: scalars as named, scalar fields of objects as <capture>_<field>, nothing nested', () => {
    expect(
      flattenCaptures({
        loan: { id: 'ln_1', status: 'active', installments: [1, 2], contract: { url: 'x' }, error: null },
        customer_cpf: '12345678909',
        transactions: [{ id: 'tx_1' }],
        count: 3,
      }),
    ).toEqual({
      loan_id: 'ln_1',
      loan_status: 'active',
      loan_error: null,
      customer_cpf: '12345678909',
      count: 3,
    });
  });

  it('indexes each state by name and reports a state two scenarios declare', () => {
    const scenarios = new Map([
      ['a', scenario('a', ['an active loan', 'a loan'])],
      ['b', scenario('b', ['a loan'])],
    ]);
    expect(providerStateIndex(scenarios).get('an active loan')?.name).toBe('a');
    const clashes = providerStateClashes(scenarios);
    expect(clashes).toHaveLength(1);
    expect(clashes[0]?.file).toBe('b.yaml');
    expect(clashes[0]?.message).toContain('provider state "a loan" is also declared by a.yaml');
  });

  it('lists the known states, sorted, in the unknown-state message', () => {
    const index = providerStateIndex(new Map([['a', scenario('a', ['z state', 'a state'])]]));
    expect(unknownStateMessage('nope', index)).toContain(
      'Unknown provider state "nope". Provider states this sandbox sets up: "a state", "z state".',
    );
    expect(unknownStateMessage('nope', new Map())).toContain('sets up: none.');
  });
});
