import { ApiError } from '../domain/errors.js';
import type { Engine } from '../engine/engine.js';
import {
  captureWorldTables,
  findTakenId,
  forceWorldTables,
  replaceWorldTables,
} from '../store/partner-world.js';
import type { ClockState, DeliveryRecord, PartnerRecord } from '../store/records.js';
import type { PartnerWorld, SnapshotRecord } from '../store/snapshot-records.js';
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

/** The name of a partner's seeded stream, whose position the store keeps (see lib/random-streams). */
export function partnerStreamKey(partnerId: string): string {
  return `partner:${partnerId}`;
}

/** The partner's random-stream position to save: draws so far under `--seed`, else null. */
export function randomDraws(store: Store, partnerId: string, seeded: boolean): number | null {
  return seeded ? store.randomCounter(partnerStreamKey(partnerId)) : null;
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
  settleWorld(deps, { ...partner, clock }, world.random_draws);
  const ctx = engine.context(partnerId);
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

/**
 * After a world's rows are in place: the partner row (its clock) as given, the seeded stream at
 * the saved position, and deliveries that were waiting or in flight when the world was saved due
 * again.
 */
function settleWorld(deps: WorldSwapDeps, partner: PartnerRecord, draws: number | null): void {
  const { store, engine } = deps;
  store.partners.replace(partner);
  if (deps.seeded) store.setRandomCounter(partnerStreamKey(partner.id), draws ?? 0);
  const ctx = engine.context(partner.id);
  for (const status of ['queued', 'sending']) {
    for (const row of [...store.deliveryIdx.byStatus.rows(`${partner.id}|${status}`)]) {
      resumeInterruptedDelivery(ctx, row.id);
    }
  }
}

/** What a world swap may have to undo: the partner's world, its partner row and one snapshot. */
export interface WorldBefore {
  partner: PartnerRecord;
  world: PartnerWorld;
  snapshotId: string;
  snapshot: SnapshotRecord | undefined;
}

/** Captures the partner's world (references to its immutable rows) before a swap that may fail. */
export function worldBefore(deps: WorldSwapDeps, partnerId: string, snapshotId: string): WorldBefore {
  const partner = deps.store.partners.get(partnerId);
  if (!partner) throw new Error(`unknown partner ${partnerId}`);
  return {
    partner,
    world: {
      clock: deps.engine.clockView(partnerId),
      random_draws: randomDraws(deps.store, partnerId, deps.seeded),
      tables: captureWorldTables(deps.store, partnerId),
    },
    snapshotId,
    snapshot: deps.store.snapshots.get(snapshotId),
  };
}

/**
 * Puts back what `worldBefore` captured, whatever a failed swap left behind (half-applied tables,
 * a snapshot row kept): rows, partner row, clock and stream position, the snapshot row. Attempts
 * the failed swap abandoned are due again, as after a restart.
 */
export function putWorldBack(deps: WorldSwapDeps, before: WorldBefore): void {
  const { store } = deps;
  const partnerId = before.partner.id;
  forceWorldTables(store, partnerId, before.world.tables);
  store.snapshots.deleteWhere((row) => row.id === before.snapshotId);
  if (before.snapshot) store.snapshots.insert(before.snapshot);
  settleWorld(deps, before.partner, before.world.random_draws);
  deps.engine.scheduler.arm(partnerId);
}
