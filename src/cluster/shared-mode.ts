import {
  DEFAULT_PARTNER_ID,
  type DefaultCredential,
  ensureDefaultPartner,
} from '../domain/default-partner.js';
import { ApiError } from '../domain/errors.js';
import type { AppDeps } from '../http/deps.js';
import type { PostgresPersistence } from '../store/postgres/postgres-persistence.js';
import type { PartnerRecord } from '../store/records.js';
import { Cluster } from './cluster.js';
import { Forwarder } from './forward.js';
import { clusterMiddleware } from './middleware.js';
import { RequestPartners } from './request-partner.js';

export interface SharedMode {
  cluster: Cluster;
  /** Once the server listens: registers `url`, takes the default partner if free, starts renewing. */
  start(url: string, credential: DefaultCredential, clockMode: 'running' | 'frozen'): Promise<void>;
  /** Gives every partner back (after the last flush) and closes forwarding connections. */
  close(): Promise<void>;
}

/** Wires shared mode into the app's dependencies: ownership, forwarding, write fencing. */
export function sharedMode(deps: AppDeps, persistence: PostgresPersistence, leaseMs?: number): SharedMode {
  const cluster = new Cluster({
    pool: persistence.pool,
    store: deps.store,
    persistence,
    engine: deps.engine,
    webhooks: deps.webhooks,
    log: deps.log,
    leaseMs,
  });
  const forwarder = new Forwarder(cluster.instanceId);
  deps.clusterGate = clusterMiddleware(cluster, new RequestPartners(deps.store, persistence.pool), forwarder);
  deps.partnerDirectory = {
    createdBy: async (partnerId) =>
      (
        await persistence.pool.query<{ record: PartnerRecord }>(
          "SELECT record FROM partners WHERE record->>'created_by' = $1",
          [partnerId],
        )
      ).rows.map((r) => r.record),
  };
  return {
    cluster,
    async start(url, credential, clockMode) {
      cluster.start(url);
      const view = await cluster.claim(DEFAULT_PARTNER_ID);
      if (view.mine) {
        ensureDefaultPartner(deps, credential, clockMode);
        try {
          await deps.persistence.flush();
        } catch (error) {
          // Another instance starting at the same moment created the default partner first.
          if (!(error instanceof ApiError && error.code === 'instance_unavailable')) throw error;
        }
      }
      void cluster.tick();
    },
    async close() {
      await cluster.stop();
      await forwarder.close();
    },
  };
}
