import { expiredPartners, pruneTombstones, removePartner } from '../domain/partner-lifetime.js';
import type { Logger } from '../http/deps.js';
import type { Persistence } from '../store/persistence.js';
import { StorageUnavailableError } from '../store/storage-health.js';
import type { Store } from '../store/store.js';

/** How often lifetimes are checked: an expired partner is refused at once anyway (at auth). */
export const SWEEP_EVERY_MS = 5_000;
/** Expired partners one sweep removes at most (each removal is one change). */
const BATCH = 200;

export interface SweeperDeps {
  store: Store;
  persistence: Persistence;
  realNow: () => number;
  log: Logger;
  /** Shared mode: the partners no instance holds (removed from the database directly). */
  remote?: { sweep(realNowMs: number): Promise<number> } | undefined;
}

/**
 * Enforces partner lifetimes on real time: every few seconds the partners in memory whose
 * `expires_at` has passed are removed (each in one change, as a deletion is), tombstones past
 * their retention are dropped, and in shared mode the database's expired partners that no
 * instance holds go too. Between two sweeps an expired partner is already refused at
 * authentication (401 `partner_expired`).
 */
export class PartnerSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(private readonly deps: SweeperDeps) {}

  start(everyMs = SWEEP_EVERY_MS): void {
    this.timer = setInterval(() => {
      this.running ??= this.sweep()
        .catch((error: unknown) => {
          // Said once by the storage health when it began, not every sweep.
          if (!(error instanceof StorageUnavailableError))
            this.deps.log.error('partner lifetime sweep failed', error);
        })
        .finally(() => {
          this.running = undefined;
        });
    }, everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One sweep at real time `now` (tests move it); answers how many partners it removed. */
  async sweep(now = this.deps.realNow()): Promise<number> {
    const { store, persistence } = this.deps;
    // A removal the store cannot write would be rolled back: the partners wait for a sweep that can.
    if (!persistence.health.writable) return 0;
    let removed = 0;
    for (;;) {
      const expired = expiredPartners(store, now, BATCH);
      for (const id of expired) removePartner(store, id, 'expired', now);
      removed += expired.length;
      if (expired.length < BATCH) break;
    }
    const pruned = pruneTombstones(store, now);
    if (removed > 0 || pruned > 0) await persistence.flush();
    if (removed > 0) this.deps.log.info(`removed ${removed} expired partner(s)`);
    if (this.deps.remote) removed += await this.deps.remote.sweep(now);
    return removed;
  }
}
