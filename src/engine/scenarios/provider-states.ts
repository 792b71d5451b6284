import type { Scenario } from './types.js';

/**
 * Pact provider states: a scenario file declares the states it sets up (`provider_states:`), and
 * the verifier's state change request names one. This module is the pure part: which scenario
 * provides a state, and the flat object of values the verifier injects with `fromProviderState`.
 */

/** Each declared state, by its exact name, with the scenario that sets it up. */
export function providerStateIndex(scenarios: ReadonlyMap<string, Scenario>): Map<string, Scenario> {
  const index = new Map<string, Scenario>();
  for (const scenario of scenarios.values()) {
    for (const state of scenario.providerStates) if (!index.has(state)) index.set(state, scenario);
  }
  return index;
}

/** A state declared by two scenarios would be ambiguous: one problem per clash (load fails). */
export function providerStateClashes(
  scenarios: ReadonlyMap<string, Scenario>,
): { file: string; message: string }[] {
  const owner = new Map<string, Scenario>();
  const problems: { file: string; message: string }[] = [];
  for (const scenario of scenarios.values()) {
    for (const state of scenario.providerStates) {
      const first = owner.get(state);
      if (first && first !== scenario) {
        problems.push({
          file: scenario.file,
          message: `provider state "${state}" is also declared by ${first.file} (scenario "${first.name}"); a state must name one scenario`,
        });
      } else owner.set(state, scenario);
    }
  }
  return problems;
}

type Scalar = string | number | boolean | null;

function isScalar(value: unknown): value is Scalar {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/**
 * What a run captured, as one flat JSON object for Pact's `fromProviderState`: a scalar capture
 * keeps its name (`loan_id`), and each scalar field of a captured object becomes
 * `<capture>_<field>` (`customer` → `customer_id`, `customer_cpf`, `loan` → `loan_id`,
 * `loan_status`). Nested objects and arrays are left out: a provider-state expression names one
 * value. A later capture of the same key wins, as it does in the run's own scope.
 */
export function flattenCaptures(captured: Readonly<Record<string, unknown>>): Record<string, Scalar> {
  const flat: Record<string, Scalar> = {};
  for (const [name, value] of Object.entries(captured)) {
    if (isScalar(value)) {
      flat[name] = value;
    } else if (typeof value === 'object' && !Array.isArray(value)) {
      for (const [field, inner] of Object.entries(value as Record<string, unknown>)) {
        if (isScalar(inner)) flat[`${name}_${field}`] = inner;
      }
    }
  }
  return flat;
}

/** `Unknown provider state "x". Provider states: a, b.` (Pact shows it to the developer as is). */
export function unknownStateMessage(state: string, index: ReadonlyMap<string, Scenario>): string {
  const known = [...index.keys()].sort();
  return `Unknown provider state "${state}". Provider states this sandbox sets up: ${
    known.length > 0 ? known.map((name) => `"${name}"`).join(', ') : 'none'
  }. Declare more in a scenario file with provider_states: [...] (docs/pact.md).`;
}
