import { startOfLocalDayMs } from '../../finance/local-day.js';
import { clockDurationMs, formatDuration, realDurationMs } from './durations.js';
import { type Expression, evaluate, show } from './expressions.js';
import { coerceParam, RUNS_HINT, RUNS_PATH } from './load.js';
import { ScenarioError } from './paths.js';
import { interpolate, interpolateText, resolve, resolveDefined, type Scope } from './scope.js';
import type {
  AdvanceStep,
  ExpectStep,
  IncludeStep,
  RequestSpec,
  RequestStep,
  Scenario,
  Step,
  WaitStep,
} from './types.js';

/** A request as the runner hands it to the transport (placeholders filled in). */
export interface OutgoingRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** A JSON body, or multipart form data. */
  body?: unknown;
  form?: FormData;
}

export interface IncomingResponse {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON when the response is JSON, the text otherwise (undefined when empty). */
  body: unknown;
}

/** What the runner needs from outside: a transport to the API and sources of fresh values and time. */
export interface RunnerDeps {
  /** Sends a request exactly as the partner would (through the whole app, with the partner's token). */
  send(request: OutgoingRequest): Promise<IncomingResponse>;
  /** `${random.<name>}` */
  random(name: string): unknown;
  /** The bytes of a fixtures/ file named by an `@name` form value. */
  fixture(name: string): { bytes: Uint8Array<ArrayBuffer>; contentType: string };
  /** Real time, for polling bounds only (the partner clock moves through the API). */
  monotonicMs(): number;
  sleep(ms: number): Promise<void>;
  runId: string;
  /** Told of each top-level step as it completes (the dashboard shows runs live). */
  onStep?: (result: StepResult) => void;
}

export type StepStatus = 'passed' | 'failed' | 'skipped';

export interface StepResult {
  index: number;
  name: string;
  kind: Step['kind'];
  status: StepStatus;
  detail: string;
  response?: { status: number; body: unknown };
}

export interface RunResult {
  scenario: string;
  status: 'passed' | 'failed';
  params: Record<string, unknown>;
  steps: StepResult[];
  failed_step?: { index: number; name: string; detail: string };
  /** What the run captured (customer, offer, loan…), so a CI job can use what it seeded. */
  captured: Record<string, unknown>;
}

/** A param given for a run is unknown, missing or of the wrong type. */
export class ParamError extends Error {
  override name = 'ParamError';
  constructor(readonly problems: { param: string; detail: string }[]) {
    super(problems.map((p) => p.detail).join('; '));
  }
}

/** Default bounds of wait_until steps. */
export const WAIT_DEFAULTS = { triesWithClock: 60, timeoutMs: 10_000, intervalMs: 100 } as const;
/** No wait_until may try more often than this, whatever its bounds say. */
const MAX_TRIES = 10_000;

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

interface Outcome {
  detail: string;
  response?: IncomingResponse;
  /** The scope the step last looked at (with `response` and its captures). */
  scope?: Scope;
}

function responseOf(outcome: Outcome): Pick<StepResult, 'response'> {
  return outcome.response
    ? { response: { status: outcome.response.status, body: outcome.response.body } }
    : {};
}

async function requestStep(
  step: RequestStep,
  scope: Scope,
  deps: RunnerDeps,
  outcome: Outcome,
): Promise<boolean> {
  const sent = await send(step.request, scope, deps);
  outcome.response = sent.response;
  const statusProblem = checkStatus(step.expectStatus, sent.response);
  if (statusProblem) {
    outcome.detail = `${sent.line} → ${statusProblem}`;
    return false;
  }
  const local = capture(step.capture, scope, sent.response);
  outcome.scope = local;
  const verdict = check(step.expect, local);
  outcome.detail = `${sent.line} → ${sent.response.status}${verdict.detail ? `; ${verdict.detail}` : ''}`;
  return verdict.ok;
}

async function advanceStep(
  step: AdvanceStep,
  scope: Scope,
  deps: RunnerDeps,
  outcome: Outcome,
): Promise<boolean> {
  let body: { by: string } | { to: string };
  if (step.to !== undefined) {
    const text = interpolateText(step.to, scope);
    // A bare date is a São Paulo day, like every date of the API: it starts at 00:00 local time.
    const base = /^\d{4}-\d{2}-\d{2}$/.test(text) ? startOfLocalDayMs(text) : Date.parse(text);
    if (Number.isNaN(base)) throw new ScenarioError(`advance.to: "${text}" is not a date or date-time`);
    const plus =
      step.plus === undefined ? 0 : clockDuration(interpolateText(step.plus, scope), 'advance.plus');
    body = { to: new Date(base + plus).toISOString() };
  } else {
    const by = interpolateText(step.by ?? '', scope);
    clockDuration(by, 'advance');
    body = { by };
  }
  const response = await deps.send(jsonRequest('POST', '/v3/sandbox/clock/advance', body));
  outcome.response = response;
  if (response.status !== 200) {
    outcome.detail = `POST /v3/sandbox/clock/advance ${JSON.stringify(body)} → ${describeFailure(response)}`;
    return false;
  }
  outcome.detail = `clock now ${String((response.body as { now?: unknown }).now)}`;
  return true;
}

async function waitStep(step: WaitStep, scope: Scope, deps: RunnerDeps, outcome: Outcome): Promise<boolean> {
  const everyMs =
    step.every === undefined ? undefined : clockDuration(interpolateText(step.every, scope), 'every');
  const withinMs =
    everyMs === undefined
      ? 0
      : step.within === undefined
        ? everyMs * WAIT_DEFAULTS.triesWithClock
        : clockDuration(interpolateText(step.within, scope), 'within');
  const timeoutMs =
    step.timeout === undefined ? WAIT_DEFAULTS.timeoutMs : realDuration(step.timeout, 'timeout');
  const intervalMs =
    step.interval === undefined
      ? WAIT_DEFAULTS.intervalMs
      : realDuration(step.interval, 'interval', { zero: true });
  const maxTries = Math.min(step.maxTries ?? MAX_TRIES, MAX_TRIES);
  const started = deps.monotonicMs();
  let advancedMs = 0;
  for (let tries = 1; tries <= maxTries; tries += 1) {
    let local = scope;
    if (step.request) {
      const sent = await send(step.request, scope, deps);
      outcome.response = sent.response;
      const statusProblem = checkStatus(step.expectStatus, sent.response);
      if (statusProblem) {
        outcome.detail = `${sent.line} → ${statusProblem}`;
        return false;
      }
      local = capture(step.capture, scope, sent.response, { lenient: true });
      outcome.scope = local;
    }
    const verdict = check(step.until, local, { lenient: true });
    if (verdict.ok) {
      const waited =
        everyMs === undefined
          ? `after ${Math.round(deps.monotonicMs() - started)} ms of real time`
          : advancedMs === 0
            ? 'without advancing the clock'
            : `after advancing the clock ${formatDuration(advancedMs)}`;
      // Captures become visible to later steps only once the condition holds.
      if (step.request) Object.assign(scope.values, pickCaptures(local, step.capture));
      outcome.detail = `${verdict.detail} (${waited}, ${tries} ${tries === 1 ? 'try' : 'tries'})`;
      return true;
    }
    if (tries === maxTries) {
      outcome.detail = `still not true after ${maxTries} ${maxTries === 1 ? 'try' : 'tries'}: ${verdict.detail}`;
      return false;
    }
    if (everyMs !== undefined) {
      if (advancedMs + everyMs > withinMs) {
        outcome.detail = `still not true after advancing the clock ${formatDuration(advancedMs)} in steps of ${formatDuration(everyMs)}: ${verdict.detail}`;
        return false;
      }
      const response = await deps.send(
        jsonRequest('POST', '/v3/sandbox/clock/advance', { by: formatDuration(everyMs) }),
      );
      if (response.status !== 200) {
        outcome.response = response;
        outcome.detail = `advancing the clock failed: ${describeFailure(response)}`;
        return false;
      }
      advancedMs += everyMs;
    } else {
      if (deps.monotonicMs() - started >= timeoutMs) {
        outcome.detail = `still not true after ${formatDuration(timeoutMs)} of real time: ${verdict.detail}`;
        return false;
      }
      if (intervalMs > 0) await deps.sleep(intervalMs);
    }
  }
  return false;
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

function expectStep(step: ExpectStep, scope: Scope, outcome: Outcome): boolean {
  const verdict = check(step.expect, scope);
  outcome.detail = verdict.detail;
  return verdict.ok;
}

/** Evaluates conditions in order; the first false one decides the detail. */
function check(
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
function capture(
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

function pickCaptures(local: Scope, captures: Record<string, string>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(captures).map((name) => [name, local.values[name]]));
}

async function send(
  spec: RequestSpec,
  scope: Scope,
  deps: RunnerDeps,
): Promise<{ line: string; response: IncomingResponse }> {
  const path = interpolateText(spec.path, scope);
  if (!path.startsWith('/') || path.startsWith('//'))
    throw new ScenarioError(`request.path "${path}" must start with "/"`);
  if (RUNS_PATH.test(path)) throw new ScenarioError(`request.path: ${RUNS_HINT}`);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(spec.headers ?? {})) {
    headers[name.toLowerCase()] = interpolateText(String(value), scope);
  }
  const request: OutgoingRequest = { method: spec.method, path, headers };
  if (spec.body !== undefined) {
    request.body = interpolate(spec.body, scope);
    headers['content-type'] ??= 'application/json';
  }
  if (spec.form) {
    const form = new FormData();
    for (const [field, template] of Object.entries(spec.form)) {
      const value = typeof template === 'string' ? interpolateText(template, scope) : String(template);
      if (value.startsWith('@')) {
        if (!/^[\w-][\w.-]*$/.test(value.slice(1))) {
          throw new ScenarioError(
            `request.form.${field}: "${value}" must name a file of fixtures/, e.g. @sample.pdf`,
          );
        }
        const file = deps.fixture(value.slice(1));
        form.set(field, new File([file.bytes], value.slice(1), { type: file.contentType }));
      } else {
        form.set(field, value);
      }
    }
    request.form = form;
  }
  const response = await deps.send(request);
  return { line: `${spec.method} ${path}`, response };
}

function jsonRequest(method: string, path: string, body: unknown): OutgoingRequest {
  return { method, path, headers: { 'content-type': 'application/json' }, body };
}

function checkStatus(expected: number[], response: IncomingResponse): string | undefined {
  const ok =
    expected.length === 0
      ? response.status >= 200 && response.status < 300
      : expected.includes(response.status);
  if (ok) return undefined;
  const wanted = expected.length === 0 ? 'a 2xx status' : `status ${expected.join(' or ')}`;
  return `expected ${wanted}, got ${describeFailure(response)}`;
}

/** `422 credit_offer_expired: Credit offer co_… expired at …` — the problem's own words. */
function describeFailure(response: IncomingResponse): string {
  const body = response.body as { code?: unknown; detail?: unknown } | undefined;
  if (body && typeof body === 'object' && typeof body.detail === 'string') {
    return `${response.status}${typeof body.code === 'string' ? ` ${body.code}` : ''}: ${body.detail}`;
  }
  return `${response.status}${body === undefined ? '' : ` ${show(body)}`}`;
}

function clockDuration(text: string, key: string): number {
  const ms = clockDurationMs(text);
  if (ms === undefined || ms <= 0)
    throw new ScenarioError(`${key}: "${text}" is not a duration like 90s, 15m, 2h or 35d`);
  return ms;
}

function realDuration(text: string, key: string, options: { zero?: boolean } = {}): number {
  const ms = realDurationMs(text);
  if (ms === undefined || (ms <= 0 && !options.zero))
    throw new ScenarioError(`${key}: "${text}" is not a duration like 200ms or 5s`);
  return ms;
}
