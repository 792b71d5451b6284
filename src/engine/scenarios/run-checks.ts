// Captures and conditions of a run: values taken from a response into scope, expressions checked in order.
import { type Expression, evaluate } from './expressions.js';
import { ScenarioError } from './paths.js';
import type { IncomingResponse } from './runner-types.js';
import { resolveDefined, type Scope } from './scope.js';

/** Evaluates conditions in order; the first false one decides the detail. */
export function check(
  conditions: Expression[],
  scope: Scope,
  options: { lenient?: boolean } = {},
): { ok: boolean; detail: string } {
  const passed: string[] = [];
  for (const condition of conditions) {
    let verdict: { ok: boolean; detail: string };
    try {
      verdict = evaluate(condition, scope);
    } catch (error) {
      // While waiting, "not there yet" (an undefined path) is just "not yet true".
      if (options.lenient && error instanceof ScenarioError) {
        verdict = { ok: false, detail: `${condition.text}: ${error.message}` };
      } else {
        throw error;
      }
    }
    if (!verdict.ok) return verdict;
    passed.push(verdict.detail);
  }
  return { ok: true, detail: passed.join('; ') };
}

/** A scope with `response` and the step's captures added (captures also land in `scope`). */
export function capture(
  captures: Record<string, string>,
  scope: Scope,
  response: IncomingResponse,
  options: { lenient?: boolean } = {},
): Scope {
  const local: Scope = { values: { ...scope.values, response }, random: scope.random };
  for (const [name, path] of Object.entries(captures)) {
    try {
      local.values[name] = resolveDefined(`response.${path}`, local);
    } catch (error) {
      if (!options.lenient) throw new ScenarioError(`capture.${name}: ${(error as Error).message}`);
      local.values[name] = undefined;
    }
  }
  if (!options.lenient) Object.assign(scope.values, pickCaptures(local, captures));
  return local;
}

export function pickCaptures(local: Scope, captures: Record<string, string>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(captures).map((name) => [name, local.values[name]]));
}
