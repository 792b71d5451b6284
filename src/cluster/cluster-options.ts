import type pg from 'pg';
import type { Engine } from '../engine/engine.js';
import type { Logger } from '../http/deps.js';
import type { PostgresPersistence } from '../store/postgres/postgres-persistence.js';
import type { Store } from '../store/store.js';
import type { WebhookDelivery } from '../webhooks/delivery-service.js';

// Shared mode's settings (`--lease`, `--idle-unload`) and what a Cluster is built from.

/** Default lease length: a dead instance's partners move within this plus one sweep. */
export const DEFAULT_LEASE_MS = 5_000;
/**
 * Bounds of `--lease`. Below 1 s a renewal (every fifth of a lease) that waits on a busy database
 * for a few hundred ms lets a healthy owner's partners be taken over; above 60 s a dead instance's
 * partners stay unavailable for a minute.
 */
export const LEASE_MS_BOUNDS = { min: 1_000, max: 60_000 } as const;
/** Default of `--idle-unload`: a partner without a request for this long leaves memory. */
export const DEFAULT_IDLE_UNLOAD_MS = 15 * 60_000;

export interface ClusterOptions {
  pool: pg.Pool;
  store: Store;
  persistence: PostgresPersistence;
  engine: Engine;
  webhooks: WebhookDelivery;
  log: Logger;
  leaseMs?: number | undefined;
  /** Real time, ms since the epoch (idle times, and when parked partners are due). */
  realNow: () => number;
  /** A partner without a request for this long is unloaded (`--idle-unload`); never when absent. */
  idleUnloadMs?: number | undefined;
}
