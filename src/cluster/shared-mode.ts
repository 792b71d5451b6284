import {
  DEFAULT_PARTNER_ID,
  type DefaultCredential,
  ensureDefaultPartner,
} from '../domain/default-partner.js';
import { ApiError } from '../domain/errors.js';
import type { AppDeps } from '../http/deps.js';
import { flushFor } from '../store/persistence.js';
import type { PostgresPersistence } from '../store/postgres/postgres-persistence.js';
import { Cluster } from './cluster.js';
import { Forwarder } from './forward.js';
import { clusterMiddleware } from './middleware.js';
import { SharedPartnerDirectory } from './partner-directory.js';
import { RequestPartners } from './request-partner.js';

export interface SharedMode {
  cluster: Cluster;
  /** Every partner of the sandbox, wherever it lives; its sweep removes expired unheld ones. */
  directory: SharedPartnerDirectory;
  /** Once the server listens: registers `url`, takes the default partner if free, starts renewing. */
  start(url: string, credential: DefaultCredential, clockMode: 'running' | 'frozen'): Promise<void>;
  /** Gives every partner back (after the last flush) and closes forwarding connections. */
  close(): Promise<void>;
}

export interface SharedModeOptions {
  leaseMs?: number | undefined;
  forwardWaitMs?: number | undefined;
  /** `--idle-unload`: a partner without a request for this long leaves memory; never when absent. */
  idleUnloadMs?: number | undefined;
}

/** Wires shared mode into the app's dependencies: ownership, forwarding, write fencing. */
export function sharedMode(
  deps: AppDeps,
  persistence: PostgresPersistence,
  options: SharedModeOptions = {},
): SharedMode {
  const cluster = new Cluster({
    pool: persistence.pool,
    store: deps.store,
    persistence,
    engine: deps.engine,
    webhooks: deps.webhooks,
    log: deps.log,
    leaseMs: options.leaseMs,
    realNow: deps.realNow,
    idleUnloadMs: options.idleUnloadMs,
  });
  const forwarder = new Forwarder(cluster.instanceId);
  deps.clusterGate = clusterMiddleware(
    cluster,
    new RequestPartners(deps.store, persistence.pool),
    forwarder,
    options.forwardWaitMs,
  );
  const directory = new SharedPartnerDirectory({
    pool: persistence.pool,
    store: deps.store,
    cluster,
    forwarder,
    realNow: deps.realNow,
    log: deps.log,
  });
  deps.partnerDirectory = directory;
  return {
    cluster,
    directory,
    async start(url, credential, clockMode) {
      cluster.start(url);
      const view = await cluster.claim(DEFAULT_PARTNER_ID);
      if (view.mine) {
        // Created here on a fresh database: it stays here (not handed off as API-made partners are).
        cluster.adopt(DEFAULT_PARTNER_ID);
        ensureDefaultPartner(deps, credential, clockMode);
        try {
          await flushFor(deps.persistence, DEFAULT_PARTNER_ID);
        } catch (error) {
          // Another instance starting at the same moment created the default partner first.
          if (!(error instanceof ApiError && error.code === 'instance_unavailable')) throw error;
        }
      }
      cluster.ready = true;
      void cluster.tick();
    },
    async close() {
      await cluster.stop();
      await forwarder.close();
    },
  };
}
