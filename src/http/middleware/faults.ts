import type { Context, MiddlewareHandler, Next } from 'hono';
import { routePath } from 'hono/route';
import { ApiError, type ErrorCode } from '../../domain/errors.js';
import { type FaultPlan, pickFault, planFault } from '../../domain/faults/decide.js';
import type { FaultRuleRecord } from '../../store/records.js';
import type { AppDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { problemBody, problemResponse } from '../problem.js';
import { isInProcess } from '../self-fetch.js';
import {
  answerTruncated,
  clientGone,
  cutConnection,
  FAULT_RELAY_HEADER,
  forwarded,
  realWait,
  socketOf,
  type Wait,
} from './fault-wire.js';

/** Sandbox control routes: never faulted, so a test can always list and clear its rules. */
const CONTROL_PREFIX = '/v3/sandbox/';

/**
 * API-side faults (`/v3/sandbox/faults`): after authentication, a call of a partner that has
 * rules is matched against them (method and route template) and the rule that acts answers a
 * status instead of the operation, loses the operation's answer, delays it, resets or holds the
 * connection, or truncates the body. A partner without rules costs one check of the table's size
 * and, when any partner has rules, one map lookup. The dashboard's and the scenario runner's own
 * calls (in-process) are never faulted.
 */
export function faults(deps: AppDeps, options: { wait?: Wait } = {}): MiddlewareHandler<AppEnv> {
  const table = deps.store.faultRules;
  const byPartner = deps.store.faultRulesByPartner;
  const wait = options.wait ?? realWait;
  // Not async: the common case (no rules) must not cost a promise.
  return (c, next) => {
    if (table.size === 0) return next();
    const partner = c.get('partner');
    if (!partner || !byPartner.has(partner.id)) return next();
    return applyFault(deps, c, next, partner.id, wait);
  };
}

async function applyFault(
  deps: AppDeps,
  c: Context<AppEnv>,
  next: Next,
  partnerId: string,
  wait: Wait,
): Promise<Response | undefined> {
  if (c.req.path.startsWith(CONTROL_PREFIX) || isInProcess(c.env)) return passOn(next);
  const path = templateOf(routePath(c, -1));
  if (path === undefined) return passOn(next);
  const ctx = deps.engine.context(partnerId, c.get('clock'));
  const draw = () => ctx.random.next();
  const method = c.req.method === 'HEAD' ? 'GET' : c.req.method;
  const rules = deps.store.faultRulesByPartner.rows(partnerId);
  const { decision, expired } = pickFault(rules, { method, path }, ctx.clock.nowMs(), draw);
  for (const rule of expired) deps.store.faultRules.delete(rule.id);
  if (!decision) return passOn(next);
  if (decision.next) deps.store.faultRules.replace(decision.next);
  else deps.store.faultRules.delete(decision.rule.id);
  // Durable before the fault acts, like any write: a restart must not give a used call back.
  await deps.persistence.flush();
  const rule = decision.rule;
  c.set('fault', { rule_id: rule.id, action: rule.action });
  return act(deps, c, next, rule, planFault(rule.action, draw), wait);
}

async function act(
  deps: AppDeps,
  c: Context<AppEnv>,
  next: Next,
  rule: FaultRuleRecord,
  plan: FaultPlan,
  wait: Wait,
): Promise<Response | undefined> {
  const socket = socketOf(c);
  // Shared mode: a request forwarded by another instance has its wire fault acted out there, on
  // the client's own connection (see actRelayedFault).
  const relay = deps.clusterGate !== undefined && forwarded(c);
  switch (plan.kind) {
    case 'delay':
      await wait(plan.ms);
      return passOn(next);
    case 'status':
      // A rule's status is exactly the rule's, even where the spec's table has no such status.
      if (!plan.afterProcessing) {
        return problemResponse(c, statusError(plan.status, plan.retryAfterSeconds), deps.config.publicUrl, {
          asIs: true,
        });
      }
      await next();
      return lostAnswer(deps, c, plan.status);
    case 'reset':
    case 'timeout':
      if (plan.afterProcessing) await next();
      c.set('fault', { rule_id: rule.id, action: rule.action, sent: { status: 0, text: null } });
      if (relay) {
        const act = plan.kind === 'reset' ? 'reset' : `timeout=${plan.ms}`;
        return replaceAnswer(c, new Response(null, { status: 502, headers: { [FAULT_RELAY_HEADER]: act } }));
      }
      if (plan.kind === 'timeout') await wait(plan.ms, clientGone(socket, c));
      return replaceAnswer(c, cutConnection(socket, plan.kind === 'reset'));
    case 'truncate': {
      await next();
      if (relay) {
        const text = await c.res.clone().text();
        const half = Buffer.from(text).subarray(0, Math.floor(Buffer.byteLength(text) / 2));
        c.set('fault', {
          rule_id: rule.id,
          action: rule.action,
          sent: { status: c.res.status, text: half.toString() },
        });
        const headers = new Headers(c.res.headers);
        headers.set(FAULT_RELAY_HEADER, 'truncate');
        return replaceAnswer(c, new Response(text, { status: c.res.status, headers }));
      }
      const { sent, response } = await answerTruncated(c, socket);
      c.set('fault', { rule_id: rule.id, action: rule.action, sent });
      return replaceAnswer(c, response);
    }
  }
}

/** Lets the request go on unfaulted. */
async function passOn(next: Next): Promise<undefined> {
  await next();
  return undefined;
}

/** The answer of an operation that ran is replaced by a gateway's 502/504 (the write stays). */
function lostAnswer(deps: AppDeps, c: Context<AppEnv>, status: number): Response {
  const error = statusError(status, null);
  const requestId = c.get('requestId');
  const instance = requestId ? `${c.req.path}#${requestId}` : c.req.path;
  // Of the lost answer's headers only the exchange's own stay (Location and the like are lost).
  const headers = new Headers({ 'content-type': 'application/problem+json' });
  c.res.headers.forEach((value, name) => {
    if (name === 'request-id' || name.startsWith('ratelimit-')) headers.set(name, value);
  });
  const body = JSON.stringify(problemBody(error, deps.config.publicUrl, instance));
  return replaceAnswer(c, new Response(body, { status, headers }));
}

/**
 * Makes `response` the request's answer, also after the operation answered (Hono ignores what a
 * middleware returns once the context holds an answer). Unset first: setting `c.res` over an
 * answer would carry that answer's headers (Location) into this one.
 */
function replaceAnswer(c: Context<AppEnv>, response: Response): Response {
  c.res = undefined;
  c.res = response;
  return response;
}

const STATUS_ERRORS: Record<number, { code: ErrorCode; detail: string }> = {
  500: {
    code: 'internal_error',
    detail: 'The server failed unexpectedly while handling the request. It is safe to retry.',
  },
  502: {
    code: 'bad_gateway',
    detail: 'An upstream service answered badly. Retry a POST with the same Idempotency-Key.',
  },
  503: {
    code: 'service_unavailable',
    detail: 'The service is temporarily unavailable; nothing was applied. Retry later.',
  },
  504: {
    code: 'gateway_timeout',
    detail: 'An upstream service did not answer in time. Retry a POST with the same Idempotency-Key.',
  },
  429: {
    code: 'rate_limited',
    detail: 'Too many requests for this partner. Retry after the number of seconds in Retry-After.',
  },
};

/** The problem production answers with this status (429 with `Retry-After`). */
function statusError(status: number, retryAfterSeconds: number | null): ApiError {
  const known = STATUS_ERRORS[status] ?? (STATUS_ERRORS[500] as { code: ErrorCode; detail: string });
  return new ApiError(known.code, known.detail, {
    ...(retryAfterSeconds !== null && { headers: { 'Retry-After': String(retryAfterSeconds) } }),
  });
}

/** `/v3/customers/:customer_id` → `/customers/{customer_id}`; undefined for no /v3 route. */
function templateOf(route: string): string | undefined {
  if (!route.startsWith('/v3/') || route.endsWith('*')) return undefined;
  return route.slice(3).replace(/\/:([A-Za-z0-9_]+)/g, '/{$1}');
}
