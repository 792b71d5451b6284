import { closest } from 'fastest-levenshtein';
import type { CoreContext } from '../../engine/context.js';
import type { FaultAction, FaultRuleRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { ApiError, notFound } from '../errors.js';
import { formatFaultDuration, parseFaultDuration } from './durations.js';

/** Rules one partner may hold at once. */
export const MAX_FAULT_RULES = 50;
/** The longest `delay` (real time: it holds a connection open). */
export const MAX_FAULT_DELAY_MS = 60_000;
/** The longest `timeout`: after it the sandbox closes the connection itself. */
export const MAX_FAULT_TIMEOUT_MS = 120_000;
/** The longest `expires_in` (partner clock). */
export const MAX_FAULT_EXPIRES_MS = 30 * 86_400_000;
/** The longest `expires_in` of a rule on `/auth/token` (it must end by itself: see addFaultRule). */
export const MAX_TOKEN_FAULT_EXPIRES_MS = 3_600_000;
/** The most calls one rule may count down. */
export const MAX_FAULT_TIMES = 10_000;
/** The longest `retry_after` of a 429, in seconds. */
export const MAX_FAULT_RETRY_AFTER_S = 3600;

/** A route of the API as the OpenAPI document names it (path below `/v3`, `{param}` syntax). */
export interface RouteTemplate {
  method: string;
  path: string;
}

/** Paths no rule may name: the sandbox's own controls, so a test can always clear its rules. */
const CONTROL_PREFIX = '/sandbox/';
/** The token endpoint: faulted only when a rule names it, and then only for a bounded while. */
const TOKEN_PATH = '/auth/token';

/** A rule as `POST /v3/sandbox/faults` takes it (shapes already checked by the API schema). */
export interface FaultRuleInput {
  match: { method?: string | undefined; path: string };
  action: FaultActionInput;
  times?: number | undefined;
  probability?: number | undefined;
  expires_in?: string | undefined;
}

/** The public shape of a rule. */
export function faultRuleView(rule: FaultRuleRecord) {
  return {
    id: rule.id,
    match: { method: rule.method, path: rule.path },
    action: rule.action,
    times_left: rule.times_left,
    probability: rule.probability,
    expires_at: rule.expires_at_ms === null ? null : new Date(rule.expires_at_ms).toISOString(),
    applied: rule.applied,
    created_at: rule.created_at,
  };
}

/**
 * Adds a rule after the partner's others (rules are matched in order of creation). The path must
 * be one of the API's route templates (a concrete path or a near miss answers 400 with the
 * template meant), the method one that route answers; `/sandbox/*` routes are refused.
 */
export function addFaultRule(
  ctx: CoreContext,
  routes: readonly RouteTemplate[],
  input: FaultRuleInput,
): FaultRuleRecord {
  const { store, partnerId, clock } = ctx;
  const active = store.faultRulesByPartner.rows(partnerId);
  if (active.length >= MAX_FAULT_RULES) {
    throw new ApiError(
      'too_many_fault_rules',
      `A partner holds at most ${MAX_FAULT_RULES} fault rules. Delete rules you no longer need (DELETE /v3/sandbox/faults/{id}) or clear them all (DELETE /v3/sandbox/faults).`,
    );
  }
  const path = templateOf(input.match.path);
  const method = input.match.method?.toUpperCase() ?? null;
  checkRoute(routes, path, method, input.match.path);
  const action = checkAction(input.action);
  if (input.times !== undefined && input.probability !== undefined) {
    throw invalid(
      'times',
      'give either times (the next n matching calls) or probability (each call by chance), not both',
    );
  }
  let expiresAtMs: number | null = null;
  if (input.expires_in !== undefined) {
    const ms = parseFaultDuration(input.expires_in);
    if (ms === undefined || ms === 0 || ms > MAX_FAULT_EXPIRES_MS) {
      throw invalid(
        'expires_in',
        `a duration up to 30d, like "90s", "10m" or "2h"; got "${input.expires_in}"`,
      );
    }
    expiresAtMs = clock.nowMs() + ms;
  }
  if (path === TOKEN_PATH) checkTokenRule(input, expiresAtMs === null ? null : expiresAtMs - clock.nowMs());
  return store.faultRules.insert({
    id: ctx.ids('flt_'),
    seq: store.nextSeq(),
    partner_id: partnerId,
    method,
    path,
    action,
    times_left: input.times ?? null,
    probability: input.probability ?? null,
    expires_at_ms: expiresAtMs,
    applied: 0,
    created_at: clock.iso(),
  });
}

/** The partner's rules still in force, in order of creation (expired ones are not shown). */
export function listFaultRules(store: Store, partnerId: string, nowMs: number): FaultRuleRecord[] {
  return store.faultRulesByPartner
    .rows(partnerId)
    .filter((rule) => rule.expires_at_ms === null || rule.expires_at_ms > nowMs);
}

/** Deletes one rule of the partner; 404 when it does not exist (or is used up, or another's). */
export function deleteFaultRule(store: Store, partnerId: string, id: string): FaultRuleRecord {
  const rule = store.faultRules.get(id);
  if (!rule || rule.partner_id !== partnerId) throw notFound('fault rule', id);
  store.faultRules.delete(id);
  return rule;
}

/** Deletes every rule of the partner; answers how many there were. */
export function clearFaultRules(store: Store, partnerId: string): number {
  const rules = [...store.faultRulesByPartner.rows(partnerId)];
  for (const rule of rules) store.faultRules.delete(rule.id);
  return rules.length;
}

/**
 * The template a rule names: below `/v3` (a leading `/v3` is accepted and dropped), `{param}`
 * segments (Hono's `:param` accepted too), no trailing slash.
 */
export function templateOf(text: string): string {
  let path = text.trim();
  if (path.startsWith('/v3/')) path = path.slice(3);
  path = path.replace(/\/:([A-Za-z0-9_]+)/g, '/{$1}');
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  return path;
}

/**
 * A rule on the token endpoint acts on the call that gets a token, and deleting a rule needs one:
 * it must end by itself (a count of calls, or an expiry of at most an hour), or it could lock the
 * partner out of its sandbox for good.
 */
function checkTokenRule(input: FaultRuleInput, expiresInMs: number | null): void {
  const why =
    "a rule on /auth/token refuses this partner new tokens, and deleting a rule needs a token (the dashboard's Faults page does not)";
  if (input.times === undefined && expiresInMs === null) {
    throw new ApiError(
      'fault_rule_unbounded',
      `This rule would never end: ${why}. Give it times (the next n token requests) or expires_in of at most 1h.`,
      { param: 'times' },
    );
  }
  if (expiresInMs !== null && expiresInMs > MAX_TOKEN_FAULT_EXPIRES_MS) {
    throw new ApiError(
      'fault_rule_unbounded',
      `expires_in "${input.expires_in}" is longer than the 1h a rule on /auth/token may last: ${why}. Give at most "1h", or times.`,
      { param: 'expires_in' },
    );
  }
}

function checkRoute(
  routes: readonly RouteTemplate[],
  path: string,
  method: string | null,
  given: string,
): void {
  if (path.startsWith(CONTROL_PREFIX)) {
    throw invalid(
      'match.path',
      `"${given}" is a sandbox control route; those are never faulted, so a test can always clear its rules`,
    );
  }
  const faultable = routes.filter((r) => !r.path.startsWith(CONTROL_PREFIX));
  const methods = faultable.filter((r) => r.path === path).map((r) => r.method.toUpperCase());
  if (methods.length === 0) {
    throw invalid('match.path', `no route has the path template "${given}"${suggestion(faultable, path)}`);
  }
  if (method !== null && !methods.includes(method)) {
    throw invalid(
      'match.method',
      `${path} answers ${[...new Set(methods)].sort().join(', ')}, not ${method}`,
    );
  }
}

/** "; did you mean …" — the template a concrete path falls under, else the nearest by spelling. */
function suggestion(routes: readonly RouteTemplate[], path: string): string {
  const templates = [...new Set(routes.map((r) => r.path))];
  const fitting = templates.find((t) => templateRegex(t).test(path));
  const meant = fitting ?? closest(path, templates);
  const list = templates.sort().join(', ');
  return `; did you mean "${meant}"? Paths are the OpenAPI templates below /v3 (${list})`;
}

function templateRegex(template: string): RegExp {
  const escaped = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
  return new RegExp(`^${escaped}$`);
}

/** An action as the API takes it: exactly one of `status`, `delay`, `reset`, `timeout`, `truncate`. */
export interface FaultActionInput {
  status?: 500 | 502 | 503 | 504 | 429 | undefined;
  after_processing?: boolean | undefined;
  retry_after?: number | undefined;
  delay?: string | { min: string; max: string } | undefined;
  reset?: true | undefined;
  timeout?: string | undefined;
  truncate?: true | undefined;
}

const ACTION_KINDS = ['status', 'delay', 'reset', 'timeout', 'truncate'] as const;

/** Checks what the schema cannot (one kind, durations, combinations); answers the action as stored. */
function checkAction(input: FaultActionInput): FaultAction {
  const kinds = ACTION_KINDS.filter((kind) => input[kind] !== undefined);
  if (kinds.length !== 1) {
    throw invalid(
      'action',
      `give exactly one of ${ACTION_KINDS.join(', ')}${kinds.length > 1 ? ` (got ${kinds.join(' and ')})` : ''}, e.g. {"status": 503} or {"delay": "2s"}`,
    );
  }
  const kind = kinds[0];
  if (input.after_processing !== undefined && kind !== 'status' && kind !== 'reset' && kind !== 'timeout') {
    throw invalid('action.after_processing', `goes with status, reset or timeout, not ${kind}`);
  }
  if (input.retry_after !== undefined && input.status !== 429) {
    throw invalid('action.retry_after', 'retry_after goes with status 429');
  }
  const after = input.after_processing ? { after_processing: true } : {};
  if (input.status !== undefined) {
    if (input.after_processing && input.status !== 502 && input.status !== 504) {
      throw invalid(
        'action.after_processing',
        `an answer lost after processing comes back as 502 or 504 (a gateway's answer), not ${input.status}`,
      );
    }
    return {
      status: input.status,
      ...after,
      ...(input.retry_after !== undefined && { retry_after: input.retry_after }),
    };
  }
  if (input.delay !== undefined) {
    if (typeof input.delay === 'string') {
      return { delay: formatFaultDuration(bounded('action.delay', input.delay, MAX_FAULT_DELAY_MS)) };
    }
    const min = bounded('action.delay.min', input.delay.min, MAX_FAULT_DELAY_MS);
    const max = bounded('action.delay.max', input.delay.max, MAX_FAULT_DELAY_MS);
    if (min > max) throw invalid('action.delay', 'min must not be above max');
    return { delay: { min: formatFaultDuration(min), max: formatFaultDuration(max) } };
  }
  if (input.timeout !== undefined) {
    const ms = bounded('action.timeout', input.timeout, MAX_FAULT_TIMEOUT_MS);
    if (ms === 0) throw invalid('action.timeout', 'a timeout must be longer than 0');
    return { timeout: formatFaultDuration(ms), ...after };
  }
  if (input.reset) return { reset: true, ...after };
  return { truncate: true };
}

function bounded(param: string, text: string, maxMs: number): number {
  const ms = parseFaultDuration(text);
  if (ms === undefined || ms > maxMs) {
    throw invalid(
      param,
      `a duration up to ${formatFaultDuration(maxMs)}, like "250ms", "2s" or "1m"; got "${text}"`,
    );
  }
  return ms;
}

function invalid(param: string, detail: string): ApiError {
  return new ApiError('validation_failed', `Invalid fault rule: ${param}: ${detail}.`, {
    param,
    errors: [{ param, detail: `${param}: ${detail}` }],
  });
}
