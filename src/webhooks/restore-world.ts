import { ApiError } from '../domain/errors.js';
import type { Engine } from '../engine/engine.js';
import { findTakenId, replaceWorldTables } from '../store/partner-world.js';
import type { ClockState, DeliveryRecord } from '../store/records.js';
import type { PartnerWorld } from '../store/snapshot-records.js';
import type { Store } from '../store/store.js';
import { resumeInterruptedDelivery } from './attempts.js';
import type { WebhookDelivery } from './delivery-service.js';

export interface WorldSwapDeps {
  store: Store;
  engine: Engine;
  webhooks: WebhookDelivery;
  realNow: () => number;
  /** Whether partner streams are seeded (`--seed`): only then is the stream position put back. */
  seeded: boolean;
}

export interface WorldSwapResult {
  /** Attempts waiting or in flight at the moment of the restore, abandoned (see the delivery log). */
  abandoned: number;
}

/** The key of a partner's seeded stream in `store.meta.random_counters` (see lib/random-streams). */
export function partnerStreamKey(partnerId: string): string {
  return `partner:${partnerId}`;
}

/** The partner's random-stream position to save: draws so far under `--seed`, else null. */
export function randomDraws(store: Store, partnerId: string, seeded: boolean): number | null {
  return seeded ? (store.randomCounters()[partnerStreamKey(partnerId)] ?? 0) : null;
}

/**
 * Puts a saved world in place of the partner's current one, all in one synchronous step, so no
 * request of the partner sees half of it and no event (so no webhook) comes of it. Then:
 * - the clock reads the saved time, frozen or running as saved; the seeded stream continues
 *   from the saved position, so the same requests answer the same bytes;
 * - deliveries that were waiting or in flight when the world was saved are sent again at their
 *   due time, as after a restart (receivers deduplicate on `webhook-id`);
 * - attempts waiting or in flight now are abandoned: nothing of them is recorded in the restored
 *   world, except that a delivery the world does not hold stays in its delivery log as
 *   `cancelled`, its last attempt saying it was abandoned by the restore.
 * Throws `snapshot_ids_taken` (changing nothing) when another partner holds one of its ids.
 */
export function putWorldInPlace(
  deps: WorldSwapDeps,
  partnerId: string,
  world: PartnerWorld,
  label: string,
): WorldSwapResult {
  const { store, engine } = deps;
  const taken = findTakenId(store, partnerId, world.tables);
  if (taken) {
    throw new ApiError(
      'snapshot_ids_taken',
      `Another partner of this sandbox holds ${taken.id} (${taken.table}), an id of this snapshot. Ids are kept, and one id belongs to one partner: use that partner, another sandbox, or reset that partner first.`,
    );
  }
  const partner = store.partners.get(partnerId);
  if (!partner) throw new Error(`unknown partner ${partnerId}`);

  const abandoned = deps.webhooks.abandonPartner(partnerId);
  const before = new Map<string, DeliveryRecord>();
  for (const attempt of abandoned) {
    const row = store.deliveries.get(attempt.deliveryId);
    if (row) before.set(row.id, row);
  }

  replaceWorldTables(store, partnerId, world.tables);
  const savedMs = Date.parse(world.clock.now);
  const clock: ClockState = world.clock.frozen
    ? { offset_ms: partner.clock.offset_ms, frozen_at_ms: savedMs }
    : { offset_ms: savedMs - deps.realNow(), frozen_at_ms: null };
  store.partners.replace({ ...partner, clock });
  if (deps.seeded) store.randomCounters()[partnerStreamKey(partnerId)] = world.random_draws ?? 0;

  const ctx = engine.context(partnerId);
  for (const status of ['queued', 'sending']) {
    for (const row of [...store.deliveryIdx.byStatus.rows(`${partnerId}|${status}`)]) {
      resumeInterruptedDelivery(ctx, row.id);
    }
  }
  for (const attempt of abandoned) {
    const row = before.get(attempt.deliveryId);
    if (!row || store.deliveries.get(row.id)) continue;
    const now = ctx.clock.iso();
    store.deliveries.insert({
      ...row,
      status: 'cancelled',
      attempts: [
        ...row.attempts,
        {
          attempt_number: attempt.attemptNumber,
          attempted_at: now,
          status_code: null,
          duration_ms: 0,
          response_body: null,
          error: attempt.sent
            ? `abandoned: snapshot "${label}" was restored while this attempt was in flight; the receiver may have got it, its answer was not recorded`
            : `abandoned: snapshot "${label}" was restored while this attempt waited for a sending slot; it was not sent`,
          next_attempt_at: null,
        },
      ],
      next_attempt_at: null,
      job_id: null,
      updated_at: now,
    });
  }
  engine.scheduler.arm(partnerId);
  return { abandoned: abandoned.length };
}
