import { performance } from 'node:perf_hooks';
import { creditModule } from './domain/credit/module.js';
import { customersModule } from './domain/customers/module.js';
import type { DomainModule } from './domain/modules.js';
import { Engine } from './engine/engine.js';
import { bankingCalendar } from './finance/business-days.js';
import type { AppConfig, AppDeps, Logger } from './http/deps.js';
import { idleTurns } from './lib/idle-turns.js';
import type { IdSource, RandomBytes } from './lib/ids.js';
import type { RandomSource } from './lib/random.js';
import { type RandomStreams, unseededStreams } from './lib/random-streams.js';
import { measureWorldRowsWhenIdle } from './store/partner-world.js';
import type { Persistence } from './store/persistence.js';
import type { Store } from './store/store.js';
import {
  type AttemptOutcome,
  createWebhookDelivery,
  type WebhookDelivery,
} from './webhooks/delivery-service.js';
import { webhooksModule } from './webhooks/module.js';
import type { WebhookSender } from './webhooks/sender.js';

/** Every domain module, registered in this order when the engine is built. */
const DOMAIN_MODULES: DomainModule[] = [webhooksModule, customersModule, creditModule];

export interface BaseDeps {
  store: Store;
  persistence: Persistence;
  ids: IdSource;
  randomBytes: RandomBytes;
  /** Replaces each partner's random numbers for chaos (tests); its stream from `streams` otherwise. */
  random?: RandomSource;
  realNow: () => number;
  /** Per-partner random streams (`--seed`); everyone shares `ids`/`randomBytes` when absent. */
  streams?: RandomStreams;
  config: AppConfig;
  log: Logger;
  /** Replaces the undici webhook sender (tests, benchmarks). */
  webhookSender?: WebhookSender;
  /**
   * Whether rows written to the partner-world tables are measured while the event loop is idle,
   * so that a first snapshot save finds their sizes known (default true; benchmarks compare).
   */
  measureRowsWhenIdle?: boolean;
  /**
   * When the row measuring runs (default: in turns that follow spare time, `idleTurns`). A host
   * that calls the app in process, with no socket to wait on between its requests, passes its own
   * (a bench: each turn, as a client that waits for each answer leaves a server).
   */
  measureRowsDefer?: (drain: () => void) => void;
  /** Told how each webhook attempt ended (`/metrics`). */
  onWebhookAttempt?: ((outcome: AttemptOutcome) => void) | undefined;
}

/** Builds the engine over the base dependencies; the one place the app's services are assembled. */
export function createDeps(base: BaseDeps): AppDeps {
  const streams = base.streams ?? unseededStreams({ ids: base.ids, randomBytes: base.randomBytes });
  const engine = new Engine({
    store: base.store,
    ids: base.ids,
    randomBytes: base.randomBytes,
    ...(base.random ? { random: base.random } : {}),
    realNow: base.realNow,
    persistence: base.persistence,
    onError: (message, error) => base.log.error(message, error),
    timings: base.config.timings,
    eventsKept: base.config.quotas?.eventsKept,
    streams,
    startTimeMs: base.config.startTimeMs,
    calendar: bankingCalendar(base.config.holidaysRegion),
  });
  for (const module of DOMAIN_MODULES) module.register(engine, base.config);
  const rowSizer =
    base.measureRowsWhenIdle === false
      ? undefined
      : measureWorldRowsWhenIdle(
          base.store,
          base.measureRowsDefer ??
            idleTurns(loopTimeSince(), NODE_TIMERS, (error) =>
              base.log.error('measuring rows for snapshot saves failed', error),
            ),
        );
  const webhooks = createWebhookDelivery({
    engine,
    store: base.store,
    persistence: base.persistence,
    realNow: base.realNow,
    timeoutMs: base.config.webhookTimeoutMs,
    publicOnly: base.config.webhookPublicOnly === true,
    send: base.webhookSender,
    onError: (message, error) => base.log.error(message, error),
    onAttempt: base.onWebhookAttempt,
  });
  watchStorage(base, engine, webhooks);
  return {
    ...base,
    streams,
    engine,
    webhooks,
    requestIds: streams.named('requests').ids,
    ...(rowSizer && { rowSizer: { whenDrained: () => keptAlive(rowSizer.whenDrained()) } }),
  };
}

/**
 * Says once that the store stopped writing, and once that it writes again; then runs what the
 * rollbacks meanwhile brought back (jobs due, deliveries interrupted).
 */
function watchStorage(base: BaseDeps, engine: Engine, webhooks: WebhookDelivery): void {
  base.persistence.health.onChange((status) => {
    if (!status.writable) {
      base.log.error(
        `storage: cannot write (${status.reason}); changes are rolled back and writes answer storage_unavailable until it can (tried every second)`,
      );
      return;
    }
    base.log.info('storage: writes work again');
    engine.scheduler.armAll();
    webhooks.resumeAfterRollback();
  });
}

/** The event loop's busy and idle milliseconds since the previous call (Node's own accounting). */
function loopTimeSince(): () => { active: number; idle: number } {
  let last = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const since = performance.eventLoopUtilization(now, last);
    last = now;
    return { active: since.active, idle: since.idle };
  };
}

/** Timers that keep no process alive (background work only). */
const NODE_TIMERS = {
  nextTurn: (run: () => void) => setImmediate(run).unref(),
  later: (run: () => void, ms: number) => setTimeout(run, ms).unref(),
  now: () => performance.now(),
};

/**
 * `waiting`, with the process kept alive until it settles: the sizer's timers keep no process
 * alive (a server's sockets do), so a caller with nothing else open (a bench, a script) would
 * otherwise end before the drain it waits for.
 */
function keptAlive(waiting: Promise<void>): Promise<void> {
  const alive = setInterval(() => {}, 60_000);
  return waiting.finally(() => clearInterval(alive));
}
