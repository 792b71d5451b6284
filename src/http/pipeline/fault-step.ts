import type { ServerResponse } from 'node:http';
import { ApiError, type ErrorCode } from '../../domain/errors.js';
import { type FaultPlan, pickFault, planFault } from '../../domain/faults/decide.js';
import { flushFor } from '../../store/persistence.js';
import type { FaultRuleRecord } from '../../store/records.js';
import type { AppDeps } from '../deps.js';
import {
  clientGone,
  FAULT_RELAY_HEADER,
  FORWARDED_BY_HEADER,
  realWait,
  socketOf,
  truncatedBytes,
  type Wait,
} from '../middleware/fault-wire.js';
import { isInProcess } from '../self-fetch.js';
import { type Answer, answer, answerHeader } from './answer.js';
import type { OperationContext } from './operation-context.js';
import { problemAnswer } from './problems.js';

/** Sandbox control routes: never faulted, so a test can always list and clear its rules. */
const CONTROL_PREFIX = '/v3/sandbox/';

/**
 * API-side faults (`/v3/sandbox/faults`) as a step of the request path: after authentication, a
 * call of a partner that has rules is matched against them (method and route template) and the
 * rule that acts answers a status instead of the operation, loses the operation's answer, delays
 * it, resets or holds the connection, or truncates the body. The pipeline asks `applies` first:
 * a partner without rules costs one check of the table's size and, when any partner has rules,
 * one map lookup. The dashboard's and the scenario runner's own calls (in-process) are never
 * faulted.
 */
export function faultStep(deps: AppDeps, options: { wait?: Wait } = {}) {
  const table = deps.store.faultRules;
  const byPartner = deps.store.faultRulesByPartner;
  const wait = options.wait ?? realWait;

  const applies = (partnerId: string | undefined): boolean =>
    table.size > 0 && partnerId !== undefined && byPartner.has(partnerId);

  const run = async (
    c: OperationContext,
    template: string | undefined,
    head: string[],
    operate: () => Answer | Promise<Answer>,
  ): Promise<Answer> => {
    const partnerId = c.get('partner').id;
    if (c.req.path.startsWith(CONTROL_PREFIX) || isInProcess(c.env) || template === undefined) {
      return operate();
    }
    const ctx = deps.engine.context(partnerId, c.get('clock'));
    const draw = () => ctx.random.next();
    const method = c.facts.method === 'HEAD' ? 'GET' : c.facts.method;
    const rules = byPartner.rows(partnerId);
    const { decision, expired } = pickFault(rules, { method, path: template }, ctx.clock.nowMs(), draw);
    for (const rule of expired) table.delete(rule.id);
    if (!decision) return operate();
    if (decision.next) table.replace(decision.next);
    else table.delete(decision.rule.id);
    // Durable before the fault acts, like any write: a restart must not give a used call back.
    await flushFor(deps.persistence, partnerId);
    const rule = decision.rule;
    c.set('fault', { rule_id: rule.id, action: rule.action });
    return act(c, rule, planFault(rule.action, draw), head, operate);
  };

  const act = async (
    c: OperationContext,
    rule: FaultRuleRecord,
    plan: FaultPlan,
    head: string[],
    operate: () => Answer | Promise<Answer>,
  ): Promise<Answer> => {
    const socket = socketOf(c.env);
    // Shared mode: a request forwarded by another instance has its wire fault acted out there, on
    // the client's own connection (see actRelayedFault).
    const relay = deps.clusterGate !== undefined && c.facts.header(FORWARDED_BY_HEADER) !== undefined;
    switch (plan.kind) {
      case 'delay':
        await wait(plan.ms);
        return operate();
      case 'status':
        // A rule's status is exactly the rule's, even where the spec's table has no such status.
        if (!plan.afterProcessing) return ruleAnswer(c, statusError(plan.status, plan.retryAfterSeconds));
        await operate();
        return lostAnswer(c, plan.status);
      case 'reset':
      case 'timeout':
        if (plan.afterProcessing) await operate();
        c.set('fault', { rule_id: rule.id, action: rule.action, sent: { status: 0, text: null } });
        if (relay) {
          const act = plan.kind === 'reset' ? 'reset' : `timeout=${plan.ms}`;
          return answer(502, [FAULT_RELAY_HEADER, act], null);
        }
        if (plan.kind === 'timeout') await wait(plan.ms, clientGone(socket, c.facts.signal));
        return cut(socket, plan.kind === 'reset');
      case 'truncate': {
        const a = await operate();
        const text = bodyText(a.body);
        const whole = Buffer.from(text);
        const half = whole.subarray(0, Math.floor(whole.length / 2));
        const sent = { status: a.status, text: half.toString('utf8') };
        c.set('fault', { rule_id: rule.id, action: rule.action, sent });
        if (relay) return answer(a.status, [...a.headers, FAULT_RELAY_HEADER, 'truncate'], text);
        if (!socket) {
          return answer(
            a.status,
            [...a.headers, 'content-length', String(whole.length)],
            failingBody(half, 'body truncated'),
          );
        }
        const outgoing = (c.env as { outgoing?: ServerResponse }).outgoing;
        await truncatedBytes(socket, outgoing, a.status, [...head, ...a.headers], whole);
        return answer(a.status, [], null);
      }
    }
  };

  /** The answer of an operation that ran is replaced by a gateway's 502/504 (the write stays). */
  const lostAnswer = (c: OperationContext, status: number): Answer => {
    // Of the lost answer's headers only the exchange's own stay (the pipeline adds them).
    return ruleAnswer(c, statusError(status, null));
  };

  /** A rule's problem, its status as the rule names it (not fitted to the spec's table). */
  const ruleAnswer = (c: OperationContext, error: ApiError): Answer =>
    problemAnswer(error, deps.config.publicUrl, c.req.path, c.get('requestId'));

  return { applies, run };
}

/** Ends the exchange without an answer: a TCP reset (`reset`) or a plain close. */
function cut(socket: ReturnType<typeof socketOf>, reset: boolean): Answer {
  if (socket) {
    if (reset && typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
    else socket.destroy();
    return answer(502, [], null);
  }
  return answer(502, [], failingBody(new Uint8Array(), reset ? 'connection reset' : 'connection closed'));
}

function bodyText(body: Answer['body']): string {
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return Buffer.from(body).toString('utf8');
  return '';
}

/** A body that yields `bytes` and then fails, as reading a cut connection does. */
function failingBody(bytes: Uint8Array, why: string): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      if (bytes.length > 0) controller.enqueue(bytes);
      controller.error(new TypeError(`terminated: ${why} by a sandbox fault rule`));
    },
  });
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

export { answerHeader };
