import type { Engine } from '../engine/engine.js';
import type { Logger } from '../http/deps.js';
import { partnerHasChanges } from '../store/partner-rows.js';
import { flushFor, type Persistence } from '../store/persistence.js';
import type { Store } from '../store/store.js';
import type { WebhookDelivery } from '../webhooks/delivery-service.js';

/** A partner an instance holds: when it took it (performance.now()) and last served it (real time). */
export interface Held {
  since: number;
  seen: number;
}

export interface IdleUnloadDeps {
  store: Store;
  persistence: Persistence;
  engine: Engine;
  webhooks: WebhookDelivery;
  log: Logger;
  realNow: () => number;
  /** A partner without a request for this long leaves memory; never when absent. */
  idleUnloadMs?: number | undefined;
  /** The partners the instance holds (shared with the cluster). */
  owned: Map<string, Held>;
  /** Whether the partner is being taken over right now. */
  claiming: (partnerId: string) => boolean;
  /** When a partner given back must be loaded again (real ms; null: at its next request). */
  wakeAt: (partnerId: string) => number | null;
  /** Gives partners back, each until its wake time. */
  park: (partners: { id: string; wakeAtMs: number | null }[]) => Promise<void>;
}

/**
 * Shared mode's idle unloading: a partner without a request for `--idle-unload` is written,
 * dropped from memory and parked until its next timed job falls due, when the sweep of some
 * instance loads it again (its next request does so at once). Meanwhile its requests wait for the
 * unload and then take it over the way any takeover does. A partner with webhook work (an attempt
 * queued or on the wire), or whose next job falls due within the idle time anyway, stays.
 */
export class IdleUnloader {
  /** Partners being unloaded: requests for them wait on these. */
  readonly unloading = new Map<string, Promise<void>>();

  constructor(private readonly deps: IdleUnloadDeps) {}

  /** Unloads every partner idle at `now` (real ms); answers how many left memory. */
  async sweep(now: number): Promise<number> {
    const idleMs = this.deps.idleUnloadMs;
    if (idleMs === undefined) return 0;
    const unloads: Promise<boolean>[] = [];
    for (const [id, held] of this.deps.owned) {
      if (now - held.seen < idleMs || this.unloading.has(id) || this.deps.claiming(id)) continue;
      const wake = this.deps.wakeAt(id);
      if (wake !== null && wake - now < idleMs) continue;
      unloads.push(this.unload(id, held.seen));
    }
    return (await Promise.all(unloads)).filter(Boolean).length;
  }

  private unload(partnerId: string, seen: number): Promise<boolean> {
    const { engine, persistence, store, webhooks, log, owned } = this.deps;
    let unloaded = false;
    const task = (async () => {
      // Nothing of it changes from here: its timer is off, and its requests wait for the unload.
      engine.scheduler.disarm(partnerId);
      try {
        await flushFor(persistence, partnerId);
      } catch (error) {
        log.error(`unloading idle partner ${partnerId} failed; it stays in memory`, error);
      }
      const held = owned.get(partnerId);
      // Used meanwhile, or something of it is not written yet: it stays.
      if (!held || held.seen !== seen || webhooks.busy(partnerId) || partnerHasChanges(store, partnerId)) {
        if (held) engine.scheduler.arm(partnerId);
        return;
      }
      const wakeAtMs = engine.scheduler.nextDueRealMs(partnerId);
      owned.delete(partnerId);
      store.evictPartner(partnerId);
      unloaded = true;
      // If parking fails the lease simply expires: the sweep of some instance loads it again.
      await this.deps
        .park([{ id: partnerId, wakeAtMs }])
        .catch((error: unknown) => log.error(`parking idle partner ${partnerId} failed`, error));
      log.info(`unloaded idle partner ${partnerId}`);
    })().finally(() => this.unloading.delete(partnerId));
    this.unloading.set(partnerId, task);
    return task.then(() => unloaded);
  }
}
