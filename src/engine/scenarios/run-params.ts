// The params of a run: given values converted to their declared types, defaults drawn, bad ones named.
import { show } from './expressions.js';
import { coerceParam } from './load-params.js';
import { interpolate, type Scope } from './scope.js';
import type { Scenario } from './types.js';

/** A param given for a run is unknown, missing or of the wrong type. */
export class ParamError extends Error {
  override name = 'ParamError';
  constructor(readonly problems: { param: string; detail: string }[]) {
    super(problems.map((p) => p.detail).join('; '));
  }
}

/**
 * The params of a run: the given ones converted to their declared types, defaults filled in
 * (templates like `${random.cpf}` drawn once). Throws ParamError naming each bad param.
 */
export function resolveParams(
  scenario: Scenario,
  given: Record<string, unknown>,
  random: (name: string) => unknown,
): Record<string, unknown> {
  const problems: { param: string; detail: string }[] = [];
  const declared = new Set(scenario.params.map((p) => p.name));
  for (const name of Object.keys(given)) {
    if (!declared.has(name)) {
      problems.push({
        param: `params.${name}`,
        detail: `scenario "${scenario.name}" has no param "${name}" (params: ${[...declared].join(', ') || 'none'})`,
      });
    }
  }
  const values: Record<string, unknown> = {};
  const scope: Scope = { values: {}, random };
  for (const spec of scenario.params) {
    const raw = given[spec.name];
    if (raw === undefined || raw === null) {
      if (spec.default === undefined) {
        if (spec.required) {
          problems.push({
            param: `params.${spec.name}`,
            detail: `param "${spec.name}" is required${spec.description ? ` (${spec.description})` : ''}`,
          });
        }
        continue;
      }
      values[spec.name] = coerceParam(interpolate(spec.default, scope), spec.type);
      continue;
    }
    const value = coerceParam(raw, spec.type);
    if (value === undefined) {
      problems.push({
        param: `params.${spec.name}`,
        detail: `param "${spec.name}" must be ${spec.type === 'integer' ? 'an integer' : `a ${spec.type}`}, got ${show(raw)}`,
      });
    } else {
      values[spec.name] = value;
    }
  }
  if (problems.length > 0) throw new ParamError(problems);
  return values;
}
