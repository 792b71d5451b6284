import type { CoreContext, DomainContext } from '../domain/context.js';
import { ApiError, notFound } from '../domain/errors.js';
import { matchesAny } from '../engine/event-types.js';
import type { DeliveryRecord, EventRecord, WebhookEndpointRecord } from '../store/records.js';
import { changeEndpointStatus, getEndpoint, signingSecrets } from './endpoints.js';
import { classifyResponse, nextAttemptAt } from './retry-schedule.js';

/** The job kind of one delivery attempt; its payload is `{delivery_id}`. */
export const ATTEMPT_JOB = 'webhook.attempt';

/** Everything the dispatcher needs to send one attempt, fixed when the attempt falls due. */
export interface PreparedAttempt {
  partnerId: string;
  deliveryId: string;
  attemptNumber: number;
  /** Partner-clock due time of this attempt: its `attempted_at`, and the base of the next retry. */
  dueAtMs: number;
  url: string;
  /** `webhook-id`: the event id, the same on every attempt and redelivery. */
  msgId: string;
  payload: string;
  /** Signing secrets (current first; the previous too during its grace period). */
  secrets: string[];
}

/** What the dispatcher observed. `statusCode` null means no HTTP answer. */
export interface AttemptResult {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  retryAfterSeconds: number | null;
}

/** The delivery body: exactly the event envelope `{type, timestamp, data}`. */
export function deliveryPayload(event: EventRecord): string {
  return JSON.stringify({ type: event.type, timestamp: event.timestamp, data: event.data });
}

/** The delivery log's view of a delivery. */
export function deliveryView(row: DeliveryRecord) {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    endpoint_id: row.endpoint_id,
    trigger: row.trigger,
    status: row.status,
    next_attempt_at: row.next_attempt_at,
    attempts: row.attempts,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * Fan-out of a new event: one delivery per active endpoint of the partner whose patterns match,
 * its first attempt due at the event's time. Endpoints created later never see this event.
 */
export function fanOut(ctx: DomainContext, event: EventRecord): DeliveryRecord[] {
  const created: DeliveryRecord[] = [];
  for (const endpoint of ctx.store.webhookEndpointIdx.byPartner.rows(ctx.partnerId)) {
    if (endpoint.status === 'active' && matchesAny(endpoint.events, event.type)) {
      created.push(createDelivery(ctx, event, endpoint, 'event'));
    }
  }
  return created;
}

/**
 * Sends a logged event again, now: to one given endpoint (even if its patterns do not match — it
 * was asked for by name; 404 unknown, 422 disabled), or to every active endpoint that matches.
 */
export function redeliver(ctx: DomainContext, eventId: string, endpointId?: string): DeliveryRecord[] {
  const event = ctx.store.events.get(eventId);
  if (!event || event.partner_id !== ctx.partnerId) throw notFound('event', eventId);
  if (endpointId === undefined) {
    return ctx.store.webhookEndpointIdx.byPartner
      .rows(ctx.partnerId)
      .filter((e) => e.status === 'active' && matchesAny(e.events, event.type))
      .map((endpoint) => createDelivery(ctx, event, endpoint, 'redeliver'));
  }
  const endpoint = getEndpoint(ctx, endpointId);
  if (endpoint.status !== 'active') {
    throw new ApiError(
      'webhook_endpoint_disabled',
      `Webhook endpoint ${endpoint.id} is disabled; enable it with PATCH {"status": "active"} before redelivering to it.`,
      { param: 'endpoint_id' },
    );
  }
  return [createDelivery(ctx, event, endpoint, 'redeliver')];
}

function createDelivery(
  ctx: DomainContext,
  event: EventRecord,
  endpoint: WebhookEndpointRecord,
  trigger: DeliveryRecord['trigger'],
): DeliveryRecord {
  const id = ctx.ids('dlv_');
  const now = ctx.clock.nowMs();
  const job = ctx.schedule(ATTEMPT_JOB, { delivery_id: id }, now);
  return ctx.store.deliveries.insert({
    id,
    seq: ctx.store.nextSeq(),
    partner_id: ctx.partnerId,
    event_id: event.id,
    event_type: event.type,
    endpoint_id: endpoint.id,
    trigger,
    status: 'pending',
    attempts: [],
    next_attempt_at: ctx.clock.iso(),
    job_id: job.id,
    created_at: ctx.clock.iso(),
    updated_at: ctx.clock.iso(),
  });
}

/**
 * An attempt falls due (the `webhook.attempt` job, ctx.clock = its due time). Returns what to
 * send and marks the delivery `sending`, or returns null when there is nothing to send: the
 * endpoint was disabled (delivery `skipped`: disabled endpoints get nothing, not even later) or
 * is gone (`cancelled`).
 */
export function beginAttempt(ctx: CoreContext, deliveryId: string): PreparedAttempt | null {
  const row = ctx.store.deliveries.get(deliveryId);
  if (!row || row.partner_id !== ctx.partnerId || row.status !== 'pending') return null;
  const endpoint = ctx.store.webhookEndpoints.get(row.endpoint_id);
  const event = ctx.store.events.get(row.event_id);
  const now = ctx.clock.nowMs();
  if (!endpoint || !event || endpoint.status !== 'active') {
    ctx.store.deliveries.replace({
      ...row,
      status: endpoint && event ? 'skipped' : 'cancelled',
      next_attempt_at: null,
      job_id: null,
      updated_at: ctx.clock.iso(),
    });
    return null;
  }
  ctx.store.deliveries.replace({
    ...row,
    status: 'sending',
    next_attempt_at: ctx.clock.iso(),
    job_id: null,
    updated_at: ctx.clock.iso(),
  });
  return {
    partnerId: row.partner_id,
    deliveryId: row.id,
    attemptNumber: row.attempts.length + 1,
    dueAtMs: now,
    url: endpoint.url,
    msgId: event.id,
    payload: deliveryPayload(event),
    secrets: signingSecrets(endpoint, now),
  };
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
  return ctx.store.deliveries.replace({
    ...row,
    status,
    attempts: [
      ...row.attempts,
      {
        attempt_number: attempt.attemptNumber,
        attempted_at: ctx.clock.iso(),
        status_code: result.statusCode,
        duration_ms: Math.round(result.durationMs),
        error: result.error ?? describeStatus(result.statusCode),
        next_attempt_at: next,
      },
    ],
    next_attempt_at: next,
    job_id: job?.id ?? null,
    updated_at: ctx.clock.iso(),
  });
}

/** Cancels the pending deliveries of an endpoint (it is being deleted): their retries never run. */
export function cancelPendingDeliveries(ctx: DomainContext, endpointId: string): number {
  const rows = ctx.store.deliveryIdx.byEndpoint
    .rows(`${ctx.partnerId}|${endpointId}`)
    .filter((r) => r.status === 'pending');
  for (const row of rows) {
    if (row.job_id !== null) ctx.cancelJob(row.job_id);
    ctx.store.deliveries.replace({
      ...row,
      status: 'cancelled',
      next_attempt_at: null,
      job_id: null,
      updated_at: ctx.clock.iso(),
    });
  }
  return rows.length;
}

/**
 * After a restart, an attempt that was in flight has no known outcome: it is sent again at its
 * due time (receivers deduplicate on `webhook-id`, as Standard Webhooks asks).
 */
export function resumeInterruptedDelivery(ctx: DomainContext, deliveryId: string): void {
  const row = ctx.store.deliveries.get(deliveryId);
  if (row?.status !== 'sending' || row.next_attempt_at === null) return;
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
