// How the request, advance, wait_until and expect steps run (include runs in runner.ts, beside the loop).
import { startOfLocalDayMs } from '../../finance/local-day.js';
import { clockDurationMs, formatDuration, realDurationMs } from './durations.js';
import { ScenarioError } from './paths.js';
import { capture, check, pickCaptures } from './run-checks.js';
import { checkStatus, describeFailure, jsonRequest, send } from './run-requests.js';
import type { Outcome, RunnerDeps } from './runner-types.js';
import { interpolateText, type Scope } from './scope.js';
import type { AdvanceStep, ExpectStep, RequestStep, WaitStep } from './types.js';

/** Default bounds of wait_until steps. */
export const WAIT_DEFAULTS = { triesWithClock: 60, timeoutMs: 10_000, intervalMs: 100 } as const;
/** No wait_until may try more often than this, whatever its bounds say. */
const MAX_TRIES = 10_000;

export async function requestStep(
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

export async function advanceStep(
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

export async function waitStep(
  step: WaitStep,
  scope: Scope,
  deps: RunnerDeps,
  outcome: Outcome,
): Promise<boolean> {
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

export function expectStep(step: ExpectStep, scope: Scope, outcome: Outcome): boolean {
  const verdict = check(step.expect, scope);
  outcome.detail = verdict.detail;
  return verdict.ok;
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
