import type { CoreContext, DomainContext } from '../engine/context.js';
import type { DeliveryRecord } from '../store/records.js';
import { chaosAct, drawAttemptChaos } from './chaos.js';
import { ATTEMPT_JOB, createDelivery, deliveryPayload } from './deliveries.js';
import { changeEndpointStatus, signingSecrets } from './endpoints.js';
import { classifyResponse, nextAttemptAt } from './retry-schedule.js';
import { RESPONSE_BODY_KEPT } from './sender.js';

/** Everything the dispatcher needs to send one attempt, fixed when the attempt falls due. */
export interface PreparedAttempt {
  partnerId: string;
  endpointId: string;
  deliveryId: string;
  attemptNumber: number;
  /** Partner-clock due time of this attempt: its `attempted_at`, and the base of the next retry. */
  dueAtMs: number;
  /** The event's log sequence: the endpoint sends lowest first (null: in the order they fell due). */
  order: number | null;
  url: string;
  /** `webhook-id`: the event id, the same on every attempt and redelivery. */
  msgId: string;
  payload: string;
  /** Signing secrets (current first, then each previous one still within its grace period). */
  secrets: string[];
  /** Chaos `duplicate_rate` chose this attempt: when it succeeds, the event is sent again. */
  duplicate?: boolean;
}

/** What the dispatcher observed. `statusCode` null means no HTTP answer. */
export interface AttemptResult {
  statusCode: number | null;
  durationMs: number;
  /** The start of the receiver's answer; null without one. */
  responseBody: string | null;
  error: string | null;
  retryAfterSeconds: number | null;
}

/**
 * An attempt falls due (the `webhook.attempt` job, ctx.clock = its due time). Returns what to
 * send and marks the delivery `queued` (waiting for a sending slot), or returns null when there is
 * nothing to send: the endpoint was disabled (delivery `skipped`: disabled endpoints get nothing,
 * not even later) or is gone (`cancelled`).
 */
export function beginAttempt(ctx: DomainContext, deliveryId: string): PreparedAttempt | null {
  const row = ctx.store.deliveries.get(deliveryId);
  if (!row || row.partner_id !== ctx.partnerId || row.status !== 'pending') return null;
  const endpoint = ctx.store.webhookEndpoints.get(row.endpoint_id);
  const event = ctx.store.events.get(row.event_id);
  const now = ctx.clock.nowMs();
  if (!endpoint || !event || endpoint.status !== 'active') {
    closeUnsent(ctx, row, endpoint && event ? 'skipped' : 'cancelled');
    return null;
  }
  const chaos = drawAttemptChaos(ctx, endpoint, row);
  if (chaos.drop) {
    dropAttempt(ctx, row, endpoint.chaos?.drop_rate ?? 1);
    return null;
  }
  ctx.store.deliveries.replace({
    ...row,
    status: 'queued',
    next_attempt_at: ctx.clock.iso(),
    job_id: null,
    updated_at: ctx.clock.iso(),
  });
  return {
    partnerId: row.partner_id,
    endpointId: endpoint.id,
    deliveryId: row.id,
    attemptNumber: row.attempts.length + 1,
    dueAtMs: now,
    // Under chaos `reorder` the endpoint sends in the order attempts fall due, not the log's.
    order: endpoint.chaos?.reorder ? null : event.seq,
    url: endpoint.url,
    msgId: event.id,
    payload: deliveryPayload(event),
    secrets: signingSecrets(endpoint, now),
    duplicate: chaos.duplicate,
  };
}

/** Chaos `drop_rate`: the attempt fails without being sent, and is retried on the normal schedule. */
function dropAttempt(
  ctx: CoreContext & Pick<DomainContext, 'schedule'>,
  row: DeliveryRecord,
  rate: number,
): void {
  const attemptNumber = row.attempts.length + 1;
  const nextMs = nextAttemptAt(attemptNumber, classifyResponse(null), null, ctx.clock.nowMs());
  const next = nextMs === null ? null : new Date(nextMs).toISOString();
  const job = nextMs === null ? null : ctx.schedule(ATTEMPT_JOB, { delivery_id: row.id }, nextMs);
  ctx.store.deliveries.replace({
    ...row,
    status: next === null ? 'failed' : 'pending',
    attempts: [
      ...row.attempts,
      {
        attempt_number: attemptNumber,
        attempted_at: ctx.clock.iso(),
        status_code: null,
        duration_ms: 0,
        response_body: null,
        error: `dropped by webhook chaos (drop_rate ${rate}): not sent, retried on the normal schedule`,
        next_attempt_at: next,
      },
    ],
    chaos: [...(row.chaos ?? []), chaosAct(ctx, 'dropped', { attempt_number: attemptNumber })],
    next_attempt_at: next,
    job_id: job?.id ?? null,
    updated_at: ctx.clock.iso(),
  });
}

/**
 * A queued attempt got its sending slot: the delivery is `sending` from now on. Answers false
 * (and closes the delivery) when it must not go out after all: the endpoint was disabled or
 * deleted while the attempt waited, or the delivery moved on (a reset).
 */
export function markSending(ctx: CoreContext, attempt: PreparedAttempt): boolean {
  const row = ctx.store.deliveries.get(attempt.deliveryId);
  if (row?.status !== 'queued' || row.attempts.length + 1 !== attempt.attemptNumber) return false;
  const endpoint = ctx.store.webhookEndpoints.get(row.endpoint_id);
  if (endpoint?.status !== 'active') {
    closeUnsent(ctx, row, endpoint ? 'skipped' : 'cancelled');
    return false;
  }
  ctx.store.deliveries.replace({ ...row, status: 'sending', updated_at: ctx.clock.iso() });
  return true;
}

function closeUnsent(ctx: CoreContext, row: DeliveryRecord, status: 'skipped' | 'cancelled'): void {
  ctx.store.deliveries.replace({
    ...row,
    status,
    next_attempt_at: null,
    job_id: null,
    updated_at: ctx.clock.iso(),
  });
}

/**
 * Records how an attempt ended (ctx.clock = the attempt's due time) and decides what follows:
 * `succeeded`; a retry per the schedule (`pending`); `failed` when the schedule is used up or the
 * receiver answered 410 Gone, which also disables the endpoint through its state machine; or
 * `cancelled` when the endpoint was deleted meanwhile. A stale result (the delivery moved on, or
 * the partner was reset) is ignored.
 */
export function recordAttemptOutcome(
  ctx: DomainContext,
  attempt: PreparedAttempt,
  result: AttemptResult,
): DeliveryRecord | null {
  const row = ctx.store.deliveries.get(attempt.deliveryId);
  if (row?.status !== 'sending' || row.attempts.length + 1 !== attempt.attemptNumber) return null;
  const outcome = classifyResponse(result.statusCode);
  const endpoint = ctx.store.webhookEndpoints.get(row.endpoint_id);
  if (outcome.kind === 'gone' && endpoint) changeEndpointStatus(ctx, endpoint.id, 'disable');
  const nextMs = endpoint
    ? nextAttemptAt(attempt.attemptNumber, outcome, result.retryAfterSeconds, ctx.clock.nowMs())
    : null;
  const next = nextMs === null ? null : new Date(nextMs).toISOString();
  const job = nextMs === null ? null : ctx.schedule(ATTEMPT_JOB, { delivery_id: row.id }, nextMs);
  const status: DeliveryRecord['status'] =
    outcome.kind === 'succeeded'
      ? 'succeeded'
      : next !== null
        ? 'pending'
        : endpoint
          ? 'failed'
          : 'cancelled';
  let chaos = row.chaos;
  const event = ctx.store.events.get(row.event_id);
  if (outcome.kind === 'succeeded' && attempt.duplicate && endpoint?.status === 'active' && event) {
    const copy = createDelivery(ctx, event, endpoint, 'duplicate');
    chaos = [...(chaos ?? []), chaosAct(ctx, 'duplicate', { duplicate_delivery_id: copy.id })];
  }
  return ctx.store.deliveries.replace({
    ...row,
    status,
    ...(chaos ? { chaos } : {}),
    attempts: [
      ...row.attempts,
      {
        attempt_number: attempt.attemptNumber,
        attempted_at: ctx.clock.iso(),
        status_code: result.statusCode,
        duration_ms: Math.round(result.durationMs),
        response_body: result.responseBody === null ? null : result.responseBody.slice(0, RESPONSE_BODY_KEPT),
        error: result.error ?? describeStatus(result.statusCode),
        next_attempt_at: next,
      },
    ],
    next_attempt_at: next,
    job_id: job?.id ?? null,
    updated_at: ctx.clock.iso(),
  });
}

/**
 * After a restart, an attempt that was waiting for a slot or in flight has no known outcome: it
 * is sent again at its due time (receivers deduplicate on `webhook-id`, as Standard Webhooks asks).
 */
export function resumeInterruptedDelivery(ctx: DomainContext, deliveryId: string): void {
  const row = ctx.store.deliveries.get(deliveryId);
  if ((row?.status !== 'sending' && row?.status !== 'queued') || row.next_attempt_at === null) return;
  const job = ctx.schedule(ATTEMPT_JOB, { delivery_id: row.id }, Date.parse(row.next_attempt_at));
  ctx.store.deliveries.replace({ ...row, status: 'pending', job_id: job.id });
}

function describeStatus(statusCode: number | null): string | null {
  if (statusCode === null || (statusCode >= 200 && statusCode < 300)) return null;
  if (statusCode === 410) {
    return '410 Gone: the endpoint was disabled and gets no more deliveries; re-enable it with PATCH {"status": "active"}';
  }
  if (statusCode >= 300 && statusCode < 400) {
    return `redirects are not followed (${statusCode}); register the final URL and answer 2xx there`;
  }
  return `receiver answered ${statusCode}; only 2xx counts as received`;
}
