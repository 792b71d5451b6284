import { ApiError } from '../domain/errors.js';
import { parseDuration } from '../engine/clock.js';
import type { DomainContext } from '../engine/context.js';
import type {
  ChaosActRecord,
  ChaosSettings,
  DeliveryRecord,
  WebhookEndpointRecord,
} from '../store/records.js';
import { getEndpoint } from './endpoints.js';

/** The longest `max_delay`: a delivery never waits more than an hour of the partner clock. */
export const MAX_CHAOS_DELAY_MS = 3_600_000;

/** Chaos as the API takes and shows it (`max_delay` as a duration like "30s"). */
export interface ChaosInput {
  duplicate_rate?: number | undefined;
  drop_rate?: number | undefined;
  max_delay?: string | null | undefined;
  reorder?: boolean | undefined;
}

export function chaosView(endpoint: WebhookEndpointRecord) {
  const chaos = endpoint.chaos ?? null;
  return {
    endpoint_id: endpoint.id,
    enabled: chaos !== null,
    duplicate_rate: chaos?.duplicate_rate ?? 0,
    drop_rate: chaos?.drop_rate ?? 0,
    max_delay: chaos && chaos.max_delay_ms > 0 ? formatDuration(chaos.max_delay_ms) : null,
    reorder: chaos?.reorder ?? false,
  };
}

/** Replaces the endpoint's chaos settings (omitted fields are 0 / off). */
export function setChaos(ctx: DomainContext, endpointId: string, input: ChaosInput): WebhookEndpointRecord {
  const endpoint = getEndpoint(ctx, endpointId);
  const maxDelayMs = input.max_delay ? parseMaxDelay(input.max_delay) : 0;
  if (input.reorder && maxDelayMs === 0) {
    throw new ApiError(
      'validation_failed',
      'reorder needs a delay window to overtake in: set max_delay too, e.g. {"reorder": true, "max_delay": "30s"}.',
      { param: 'reorder', errors: [{ param: 'reorder', detail: 'reorder: needs max_delay above 0s' }] },
    );
  }
  const chaos: ChaosSettings = {
    duplicate_rate: input.duplicate_rate ?? 0,
    drop_rate: input.drop_rate ?? 0,
    max_delay_ms: maxDelayMs,
    reorder: input.reorder ?? false,
  };
  return ctx.store.webhookEndpoints.replace({ ...endpoint, chaos, updated_at: ctx.clock.iso() });
}

/** Turns chaos off for the endpoint (deliveries already delayed keep their due time). */
export function clearChaos(ctx: DomainContext, endpointId: string): WebhookEndpointRecord {
  const endpoint = getEndpoint(ctx, endpointId);
  if (!endpoint.chaos) return endpoint;
  return ctx.store.webhookEndpoints.replace({ ...endpoint, chaos: null, updated_at: ctx.clock.iso() });
}

function parseMaxDelay(text: string): number {
  const ms = parseDuration(text);
  if (ms === undefined || ms > MAX_CHAOS_DELAY_MS) {
    throw new ApiError(
      'validation_failed',
      `max_delay must be a duration up to 1h, like "500s", "30m" or "1h"; got "${text}".`,
      { param: 'max_delay', errors: [{ param: 'max_delay', detail: 'max_delay: a duration up to 1h' }] },
    );
  }
  return ms;
}

function formatDuration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  return `${Math.round(ms / 1000)}s`;
}

/** A chaotic act at the context's now. */
export function chaosAct(
  ctx: Pick<DomainContext, 'clock'>,
  act: ChaosActRecord['act'],
  detail: Partial<Pick<ChaosActRecord, 'delay_ms' | 'attempt_number' | 'duplicate_delivery_id'>>,
): ChaosActRecord {
  return {
    act,
    at: ctx.clock.iso(),
    delay_ms: detail.delay_ms ?? null,
    attempt_number: detail.attempt_number ?? null,
    duplicate_delivery_id: detail.duplicate_delivery_id ?? null,
  };
}

/**
 * When the first attempt of a new delivery falls due: the event's time, or under `max_delay` a
 * random time up to it later. Without `reorder`, never before the endpoint's previous delivery
 * (delays stretch the line, they do not reorder it). Draws from the partner's random stream only
 * when the endpoint has a delay, so other partners' and endpoints' sequences are undisturbed.
 */
export function firstAttemptDue(
  ctx: DomainContext,
  endpoint: WebhookEndpointRecord,
  eventMs: number,
): { dueAtMs: number; delayMs: number } {
  const chaos = endpoint.chaos;
  if (!chaos || chaos.max_delay_ms <= 0) return { dueAtMs: eventMs, delayMs: 0 };
  let dueAtMs = eventMs + Math.floor(ctx.random.next() * (chaos.max_delay_ms + 1));
  if (!chaos.reorder) dueAtMs = Math.max(dueAtMs, previousFirstDue(ctx, endpoint.id) ?? dueAtMs);
  return { dueAtMs, delayMs: dueAtMs - eventMs };
}

function previousFirstDue(ctx: DomainContext, endpointId: string): number | undefined {
  const rows = ctx.store.deliveryIdx.byEndpoint.rows(`${ctx.partnerId}|${endpointId}`);
  const last = rows[rows.length - 1] as DeliveryRecord | undefined;
  if (last?.status !== 'pending' || last.attempts.length > 0 || last.next_attempt_at === null) {
    return undefined;
  }
  return Date.parse(last.next_attempt_at);
}

/** The chaos decisions of one attempt, drawn together when it falls due (so the sequence is replayable). */
export function drawAttemptChaos(
  ctx: Pick<DomainContext, 'random'>,
  endpoint: WebhookEndpointRecord,
  delivery: DeliveryRecord,
): { drop: boolean; duplicate: boolean } {
  const chaos = endpoint.chaos;
  // A duplicate is itself the chaotic act: it is not dropped or duplicated again.
  if (!chaos || delivery.trigger === 'duplicate') return { drop: false, duplicate: false };
  const drop = chaos.drop_rate > 0 && ctx.random.next() < chaos.drop_rate;
  const duplicate = !drop && chaos.duplicate_rate > 0 && ctx.random.next() < chaos.duplicate_rate;
  return { drop, duplicate };
}
