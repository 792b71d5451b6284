import type { Socket } from 'node:net';
import type { Context, MiddlewareHandler, Next } from 'hono';
import { routePath } from 'hono/route';
import { ApiError, type ErrorCode } from '../../domain/errors.js';
import { type FaultPlan, pickFault, planFault } from '../../domain/faults/decide.js';
import type { FaultRuleRecord } from '../../store/records.js';
import type { AppDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { problemBody } from '../problem.js';
import { isInProcess } from '../self-fetch.js';
import { answerTruncated, cutConnection, socketOf } from './fault-wire.js';

/** Sandbox control routes: never faulted, so a test can always list and clear its rules. */
const CONTROL_PREFIX = '/v3/sandbox/';

/** Waits real time (the wire faults are about the client's own timeouts); injectable in tests. */
export type Wait = (ms: number, signal?: AbortSignal) => Promise<void>;

const realWait: Wait = (ms, signal) =>
  new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

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
  switch (plan.kind) {
    case 'delay':
      await wait(plan.ms);
      return passOn(next);
    case 'status':
      if (!plan.afterProcessing) throw statusError(plan.status, plan.retryAfterSeconds);
      await next();
      return lostAnswer(deps, c, plan.status);
    case 'reset':
    case 'timeout':
      if (plan.afterProcessing) await next();
      if (plan.kind === 'timeout') await wait(plan.ms, closed(socket, c));
      c.set('fault', { rule_id: rule.id, action: rule.action, sent: { status: 0, text: null } });
      return replaceAnswer(c, cutConnection(socket, plan.kind === 'reset'));
    case 'truncate': {
      await next();
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

/** An abort signal for "the client gave up": its connection closed (in-process: its request aborted). */
function closed(socket: Socket | undefined, c: Context<AppEnv>): AbortSignal | undefined {
  if (!socket) return c.req.raw.signal;
  const controller = new AbortController();
  if (socket.destroyed) controller.abort();
  else socket.once('close', () => controller.abort());
  return controller.signal;
}

/** `/v3/customers/:customer_id` → `/customers/{customer_id}`; undefined for no /v3 route. */
function templateOf(route: string): string | undefined {
  if (!route.startsWith('/v3/') || route.endsWith('*')) return undefined;
  return route.slice(3).replace(/\/:([A-Za-z0-9_]+)/g, '/{$1}');
}
