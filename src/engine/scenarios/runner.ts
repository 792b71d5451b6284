// Running a scenario: the run loop over its steps, each step dispatched by kind, include steps run inside.
import { show } from './expressions.js';
import { ScenarioError } from './paths.js';
import { ParamError, resolveParams } from './run-params.js';
import { advanceStep, expectStep, requestStep, waitStep } from './run-steps.js';
import type { Outcome, RunnerDeps, RunResult, StepResult } from './runner-types.js';
import { interpolate, resolve, type Scope } from './scope.js';
import type { IncludeStep, Scenario, Step } from './types.js';

export { ParamError, resolveParams } from './run-params.js';
export { WAIT_DEFAULTS } from './run-steps.js';
export type {
  IncomingResponse,
  OutgoingRequest,
  RunnerDeps,
  RunResult,
  StepResult,
  StepStatus,
} from './runner-types.js';

/**
 * Runs a scenario's steps in order; after the first failing step the rest are `skipped`, except
 * `always` steps (clean-up), which still run.
 */
export async function runScenario(
  scenario: Scenario,
  params: Record<string, unknown>,
  deps: RunnerDeps,
): Promise<RunResult> {
  const scope: Scope = {
    values: { params, run: { id: deps.runId, scenario: scenario.name } },
    random: deps.random,
  };
  const steps = await runSteps(scenario.steps, scope, deps, deps.onStep);
  const failed = steps.find((step) => step.status === 'failed');
  const captured = Object.fromEntries(
    Object.entries(scope.values).filter(([name]) => name !== 'params' && name !== 'run'),
  );
  return {
    scenario: scenario.name,
    status: failed ? 'failed' : 'passed',
    params,
    steps,
    ...(failed ? { failed_step: { index: failed.index, name: failed.name, detail: failed.detail } } : {}),
    captured,
  };
}

async function runSteps(
  steps: readonly Step[],
  scope: Scope,
  deps: RunnerDeps,
  onStep?: (result: StepResult) => void,
): Promise<StepResult[]> {
  const results: StepResult[] = [];
  let failed = false;
  for (const step of steps) {
    if (failed && !step.always) {
      const skipped: StepResult = {
        index: step.index,
        name: step.name,
        kind: step.kind,
        status: 'skipped',
        detail: 'not run',
      };
      results.push(skipped);
      onStep?.(skipped);
      continue;
    }
    const result = await runStep(step, scope, deps);
    results.push(result);
    onStep?.(result);
    failed ||= result.status === 'failed';
  }
  return results;
}

async function runStep(step: Step, scope: Scope, deps: RunnerDeps): Promise<StepResult> {
  const base = { index: step.index, name: step.name, kind: step.kind };
  const outcome: Outcome = { detail: '' };
  try {
    const ok =
      step.kind === 'request'
        ? await requestStep(step, scope, deps, outcome)
        : step.kind === 'advance'
          ? await advanceStep(step, scope, deps, outcome)
          : step.kind === 'wait'
            ? await waitStep(step, scope, deps, outcome)
            : step.kind === 'include'
              ? await includeStep(step, scope, deps, outcome)
              : expectStep(step, scope, outcome);
    const detail = ok ? outcome.detail : explained(step, outcome.detail, outcome.scope ?? scope);
    return { ...base, status: ok ? 'passed' : 'failed', detail, ...responseOf(outcome) };
  } catch (error) {
    const detail =
      error instanceof ScenarioError
        ? error.message
        : `unexpected error: ${(error as Error).message ?? String(error)}`;
    return {
      ...base,
      status: 'failed',
      detail: explained(step, detail, outcome.scope ?? scope),
      ...responseOf(outcome),
    };
  }
}

/** A failure detail with the values of the step's `explain` paths (why it failed, not only what). */
function explained(step: Step, detail: string, scope: Scope): string {
  if (!step.explain?.length) return detail;
  const values = step.explain.map((path) => {
    try {
      return `${path} is ${show(resolve(path, scope))}`;
    } catch {
      return `${path} is undefined`;
    }
  });
  return `${detail} (${values.join('; ')})`;
}

function responseOf(outcome: Outcome): Pick<StepResult, 'response'> {
  return outcome.response
    ? { response: { status: outcome.response.status, body: outcome.response.body } }
    : {};
}

async function includeStep(
  step: IncludeStep,
  scope: Scope,
  deps: RunnerDeps,
  outcome: Outcome,
): Promise<boolean> {
  const given = Object.fromEntries(
    Object.entries(step.params).map(([name, value]) => [name, interpolate(value, scope)]),
  );
  let params: Record<string, unknown>;
  try {
    params = resolveParams(step.scenario, given, deps.random);
  } catch (error) {
    if (error instanceof ParamError)
      throw new ScenarioError(`include ${step.scenario.name}: ${error.message}`);
    throw error;
  }
  const inner: Scope = { values: { params, run: scope.values.run }, random: scope.random };
  const results = await runSteps(step.scenario.steps, inner, deps);
  const failed = results.find((result) => result.status === 'failed');
  if (failed) {
    if (failed.response)
      outcome.response = { status: failed.response.status, headers: {}, body: failed.response.body };
    outcome.detail = `${step.scenario.name} step ${failed.index} ("${failed.name}") failed: ${failed.detail}`;
    return false;
  }
  // What the included scenario captured is now in scope here (its params and run are not).
  const captured = Object.keys(inner.values).filter((name) => name !== 'params' && name !== 'run');
  for (const name of captured) scope.values[name] = inner.values[name];
  outcome.detail = `ran ${results.length} step${results.length === 1 ? '' : 's'} of ${step.scenario.name}${captured.length ? `; captured ${captured.join(', ')}` : ''}`;
  return true;
}
