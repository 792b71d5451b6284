import { randomBytes } from 'node:crypto';
import { ApiError } from '../domain/errors.js';
import { TOMBSTONE_TABLE } from '../store/change-set.js';
import { flushFor } from '../store/persistence.js';
import type { WriteGuard } from '../store/postgres/flush-errors.js';
import { StorageUnavailableError } from '../store/storage-health.js';
import { type ClusterOptions, DEFAULT_LEASE_MS } from './cluster-options.js';
import { type Held, IdleUnloader } from './idle-unload.js';
import { LeaseTable, type LeaseView } from './leases.js';

export {
  type ClusterOptions,
  DEFAULT_IDLE_UNLOAD_MS,
  DEFAULT_LEASE_MS,
  LEASE_MS_BOUNDS,
} from './cluster-options.js';

/** Orphaned partners one sweep takes at most, so a restarted fleet spreads them over instances. */
const SWEEP_BATCH = 25;

/**
 * Partner ownership in shared mode. Each partner is served by exactly one instance at a time, the
 * holder of its lease row; this instance keeps in memory only the partners it holds. It takes a
 * partner over (loads its rows, re-arms its jobs, resumes its deliveries) when a request needs it
 * or a background sweep finds it orphaned, renews its leases in the background, and drops from
 * memory a partner whose lease it lost. Every flush re-confirms the leases of the partners it
 * writes inside the same transaction (see `confirm`), so an instance that lost a partner can never
 * overwrite what the new owner wrote.
 */
export class Cluster implements WriteGuard {
  readonly instanceId = `ins_${randomBytes(8).toString('hex')}`;
  /** Set once shared mode has started (the default partner taken or found): see clusterMiddleware. */
  ready = false;
  readonly leases: LeaseTable;
  readonly leaseMs: number;
  /** Where other instances reach this one; set once the server listens. */
  url = '';
  /** Partners held here. */
  private readonly owned = new Map<string, Held>();
  private readonly claiming = new Map<string, Promise<LeaseView>>();
  /** Idle partners being written and unloaded: their requests wait, then take them over again. */
  private readonly unloading: Map<string, Promise<void>>;
  private readonly idle: IdleUnloader;
  /** Partners created here whose lease this flush took: handed off once it commits. */
  private created: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  private ticking = false;
  private lastRenewed = performance.now();

  constructor(private readonly options: ClusterOptions) {
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.leases = new LeaseTable(options.pool, this.instanceId, this.leaseMs);
    options.persistence.guard = this;
    this.idle = new IdleUnloader({
      ...options,
      owned: this.owned,
      claiming: (id) => this.claiming.has(id),
      wakeAt: (id) => this.wakeAt(id),
      park: (partners) => this.leases.park(partners),
    });
    this.unloading = this.idle.unloading;
    // A partner removed for good (or dropped otherwise) is no longer held here.
    options.store.onEvicted((partnerId) => this.owned.delete(partnerId));
  }

  owns(partnerId: string): boolean {
    return this.owned.has(partnerId) && !this.unloading.has(partnerId);
  }

  /** Whether a request for the partner is served here now; if so, the partner was used now. */
  serves(partnerId: string): boolean {
    const held = this.owned.get(partnerId);
    if (!held || this.unloading.has(partnerId)) return false;
    held.seen = this.options.realNow();
    return true;
  }

  /** How many partners this instance holds in memory. */
  get resident(): number {
    return this.owned.size;
  }

  /** A database error as a request meets it: an unreachable database is `storage_unavailable`. */
  storageError(error: unknown): unknown {
    return this.options.persistence.storageError(error);
  }

  /**
   * Makes sure the partner is served here if it can be: already held, or its lease is free and
   * taken now (rows loaded before this resolves). Otherwise names the live owner.
   */
  claim(partnerId: string): Promise<LeaseView> {
    const unloading = this.unloading.get(partnerId);
    if (unloading) return unloading.then(() => this.claim(partnerId));
    if (this.serves(partnerId)) return Promise.resolve({ mine: true });
    let pending = this.claiming.get(partnerId);
    if (!pending) {
      pending = this.takeOver(partnerId).finally(() => this.claiming.delete(partnerId));
      this.claiming.set(partnerId, pending);
    }
    return pending;
  }

  private async takeOver(partnerId: string): Promise<LeaseView> {
    const view = await this.leases.acquire(partnerId, this.url);
    const { store, persistence, engine, webhooks, log } = this.options;
    if (view === 'gone') {
      // Removed for good: what stays of it (its tombstones) answers here why it is gone.
      store.evictPartner(partnerId);
      await persistence.load([partnerId], [TOMBSTONE_TABLE]);
      return { mine: true };
    }
    if (!view.mine) return view;
    const started = performance.now();
    // Whatever an earlier tenure left in memory is stale: the database is the truth now.
    store.evictPartner(partnerId);
    const rows = await persistence.load([partnerId]);
    if (!store.partners.get(partnerId)) {
      // No such partner (a stale token): nothing to hold.
      await this.leases.drop([partnerId]);
      return { mine: true };
    }
    this.owned.set(partnerId, { since: performance.now(), seen: this.options.realNow() });
    engine.scheduler.arm(partnerId);
    webhooks.resumePartner(partnerId);
    // Other partners of the same group commit may be refused (their leases moved): not this one's failure.
    await flushFor(persistence, partnerId);
    log.info(`took over partner ${partnerId} (${rows} rows, ${Math.round(performance.now() - started)} ms)`);
    return { mine: true };
  }

  lease(): { owner: string; url: string; ttlMs: number } {
    return { owner: this.instanceId, url: this.url, ttlMs: this.leaseMs };
  }

  confirmed(held: Set<string>, partnerIds: string[]): string[] {
    const now = performance.now();
    const refused: string[] = [];
    this.created = [];
    for (const id of partnerIds) {
      if (!held.has(id)) refused.push(id);
      else if (!this.owned.has(id)) {
        // A partner created here holds its lease from this flush on.
        this.owned.set(id, { since: now, seen: this.options.realNow() });
        this.created.push(id);
      }
    }
    return refused;
  }

  /**
   * Hands partners created here back as soon as they are written: the instance whose turn it is
   * to get the partner's first request takes it, so new partners spread over the instances
   * instead of all landing on the owner of the partner that created them.
   */
  async committed(): Promise<void> {
    const created = this.created;
    this.created = [];
    if (created.length === 0) return;
    for (const id of created) this.evict(id, 'handed off after creation');
    // Awaited before the creating request is answered, so no request can reach the new partner
    // while this hand-off is on its way (it would otherwise park a lease just taken again).
    await this.giveBack(created.map((id) => ({ id, wakeAtMs: null })));
  }

  /**
   * Parks partners this instance no longer has in memory. Until the update is done they count as
   * unloading: a request for one waits and then takes it, instead of taking the lease first and
   * seeing it parked under it (another instance would then take it over from a live owner).
   */
  private giveBack(partners: { id: string; wakeAtMs: number | null }[]): Promise<void> {
    const parked = this.leases
      .park(partners)
      .catch((error: unknown) => this.options.log.error('giving leases back failed', error));
    for (const { id } of partners) {
      if (this.unloading.has(id)) continue;
      const done = parked.finally(() => {
        if (this.unloading.get(id) === done) this.unloading.delete(id);
      });
      this.unloading.set(id, done);
    }
    return parked;
  }

  refused(partnerIds: string[]): Error {
    for (const id of partnerIds) this.evict(id, 'its lease is held by another instance');
    return new ApiError(
      'instance_unavailable',
      `Another sandbox instance took over partner ${partnerIds.join(', ')} while this request ran; nothing was written. Retry (a POST with the same Idempotency-Key): it goes to the new owner.`,
      { headers: { 'Retry-After': '1' } },
    );
  }

  rolledBack(partnerIds: readonly string[]): void {
    for (const id of partnerIds) {
      if (this.owned.has(id))
        this.evict(id, 'its last change could not be saved (reloaded on its next request)');
      // A partner created by the failed write: never held, only in memory.
      else this.options.store.evictPartner(id);
    }
  }

  /** Starts renewing leases and sweeping for orphaned partners. */
  start(url: string): void {
    this.url = url;
    this.lastRenewed = performance.now();
    const every = Math.max(50, Math.floor(this.leaseMs / 5));
    this.timer = setInterval(() => void this.tick(), every);
    this.timer.unref();
  }

  /**
   * Stops the background work and gives every partner back (parked): the next request for one is
   * served by a survivor at once, and one with webhook work or a job due is loaded by a survivor's
   * sweep when it must run.
   */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await Promise.all(this.unloading.values());
    const parked = [...this.owned.keys()].map((id) => ({ id, wakeAtMs: this.wakeAt(id) }));
    await this.leases.park(parked).catch(() => {});
    this.owned.clear();
  }

  /** When a partner given back must be loaded again: now with webhook work, else at its next job. */
  private wakeAt(partnerId: string): number | null {
    const { webhooks, engine, realNow } = this.options;
    return webhooks.busy(partnerId) ? realNow() : engine.scheduler.nextDueRealMs(partnerId);
  }

  /** One renewal and one sweep; public so tests can drive it without waiting. */
  async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      await this.renew();
      await this.unloadIdle();
      for (const partnerId of await this.leases.orphans(SWEEP_BATCH, this.options.realNow())) {
        if (!this.timer) break;
        await this.claim(partnerId);
      }
    } catch (error) {
      // An unreachable database is logged once, by the storage health; retried at every tick.
      if (!(this.storageError(error) instanceof StorageUnavailableError)) {
        this.options.log.error('shared mode: lease renewal or sweep failed', error);
      }
    } finally {
      this.ticking = false;
    }
  }

  private async renew(): Promise<void> {
    const started = performance.now();
    let held: Set<string>;
    try {
      held = await this.leases.renewAll(this.url);
    } catch (error) {
      // Without a renewal for a whole lease, others may own our partners: stop serving them.
      if (performance.now() - this.lastRenewed > this.leaseMs) {
        for (const id of [...this.owned.keys()]) this.evict(id, 'its lease could not be renewed');
      }
      throw error;
    }
    this.lastRenewed = started;
    for (const [id, { since }] of this.owned) {
      if (since < started && !held.has(id)) this.evict(id, 'its lease was taken by another instance');
    }
    // A lease held without the partner in memory (its load failed): give it back, so the sweep
    // of some instance loads it and its jobs run.
    const stray = [...held].filter(
      (id) => !this.owned.has(id) && !this.claiming.has(id) && !this.unloading.has(id),
    );
    const now = this.options.realNow();
    if (stray.length > 0) await this.giveBack(stray.map((id) => ({ id, wakeAtMs: now })));
  }

  /**
   * Unloads the partners without a request for `--idle-unload` (see IdleUnloader); `now` is real
   * time, which tests move. Answers how many left memory.
   */
  unloadIdle(now = this.options.realNow()): Promise<number> {
    return this.idle.sweep(now);
  }

  /** Holds a partner this instance is about to create (the default one, at start). */
  adopt(partnerId: string): void {
    if (!this.owned.has(partnerId))
      this.owned.set(partnerId, { since: performance.now(), seen: this.options.realNow() });
  }

  private evict(partnerId: string, why: string): void {
    if (!this.owned.delete(partnerId)) return;
    this.options.store.evictPartner(partnerId);
    this.options.engine.scheduler.arm(partnerId);
    this.options.log.info(`released partner ${partnerId}: ${why}`);
  }
}
