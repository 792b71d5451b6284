import { ApiError, notFound } from '../domain/errors.js';
import type { DomainContext } from '../engine/context.js';
import { matchesAny } from '../engine/event-types.js';
import type { DeliveryRecord, EventRecord, WebhookEndpointRecord } from '../store/records.js';
import { chaosAct, firstAttemptDue } from './chaos.js';
import { getEndpoint } from './endpoints.js';

/** The job kind of one delivery attempt; its payload is `{delivery_id}`. */
export const ATTEMPT_JOB = 'webhook.attempt';

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
    attempts: row.attempts.map((a) => ({ ...a, response_body: a.response_body ?? null })),
    chaos: row.chaos ?? [],
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

/**
 * A new delivery, its first attempt due now, or later under chaos `max_delay` (the delay is
 * recorded as a chaotic act). A `duplicate` is sent right away, without chaos of its own.
 */
export function createDelivery(
  ctx: DomainContext,
  event: EventRecord,
  endpoint: WebhookEndpointRecord,
  trigger: DeliveryRecord['trigger'],
): DeliveryRecord {
  const id = ctx.ids('dlv_');
  const now = ctx.clock.nowMs();
  const { dueAtMs, delayMs } =
    trigger === 'duplicate' ? { dueAtMs: now, delayMs: 0 } : firstAttemptDue(ctx, endpoint, now);
  const job = ctx.schedule(ATTEMPT_JOB, { delivery_id: id }, dueAtMs);
  const chaos =
    endpoint.chaos?.max_delay_ms && trigger !== 'duplicate'
      ? [chaosAct(ctx, 'delayed', { delay_ms: delayMs })]
      : [];
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
    chaos,
    next_attempt_at: new Date(dueAtMs).toISOString(),
    job_id: job.id,
    created_at: ctx.clock.iso(),
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
