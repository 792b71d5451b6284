import { fixedClock } from '../engine/clock.js';
import type { Engine } from '../engine/engine.js';
import { idsPayload } from '../engine/job-payloads.js';
import { type Persistence, WriteFailedError } from '../store/persistence.js';
import { StorageUnavailableError } from '../store/storage-health.js';
import type { Store } from '../store/store.js';
import {
  type AttemptResult,
  beginAttempt,
  markSending,
  type PreparedAttempt,
  recordAttemptOutcome,
  resumeInterruptedDelivery,
} from './attempts.js';
import { ATTEMPT_JOB } from './deliveries.js';
import { WebhookDispatcher } from './dispatcher.js';
import { createUndiciSender, type WebhookSender } from './sender.js';

/** The running webhook delivery, as the app and tests see it. */
export interface WebhookDelivery {
  /**
   * Resolves when no attempt is due, queued or in flight (every delivery that can go out now has
   * settled). Tests and benchmarks await this instead of sleeping; rejects after `timeoutMs`, a
   * hang detector (the default holds on a 2-core machine running three test suites at once).
   */
  idle(timeoutMs?: number): Promise<void>;
  /** Closes the outgoing connection pool. */
  close(): Promise<void>;
  /** Re-schedules a partner's attempts that were in flight when its rows were written (takeover). */
  resumePartner(partnerId: string): void;
  /**
   * The store can write again after a rollback: attempts whose `queued` or `sending` mark came
   * back without an attempt in memory are scheduled again (every partner).
   */
  resumeAfterRollback(): void;
  /**
   * Forgets the partner's attempts waiting for a slot or in flight (a snapshot restore replaces
   * their world): the waiting ones are never sent, the outcome of those on the wire is never
   * recorded. Answers which they were.
   */
  abandonPartner(partnerId: string): AbandonedAttempt[];
  /**
   * Whether the partner has webhook work that is not a timed job: an attempt waiting for a slot or
   * on the wire, or a delivery queued or sending (an idle partner leaves memory only without).
   */
  busy(partnerId: string): boolean;
}

/** An attempt a restore abandoned; `sent`: it was on the wire (the receiver may get it). */
export interface AbandonedAttempt {
  deliveryId: string;
  attemptNumber: number;
  sent: boolean;
}

export interface WebhookDeliveryOptions {
  engine: Engine;
  store: Store;
  persistence: Persistence;
  realNow: () => number;
  timeoutMs: number;
  /** Hosted safety: connect only to public addresses (see public-address.ts). */
  publicOnly?: boolean | undefined;
  /** Defaults to undici; tests and benchmarks may inject their own. */
  send?: WebhookSender | undefined;
  concurrency?: number | undefined;
  /** Sending slots one partner may hold (DEFAULT_PARTNER_CONCURRENCY). */
  perPartner?: number | undefined;
  onError: (message: string, error: unknown) => void;
  /** Told how each attempt ended (`/metrics`). */
  onAttempt?: ((outcome: AttemptOutcome) => void) | undefined;
}

/** How a webhook attempt ended: a 2xx, another status, no answer in time, no connection, or chaos. */
export type AttemptOutcome = 'succeeded' | 'http_error' | 'timeout' | 'network_error' | 'dropped';

function outcomeOf(result: AttemptResult): AttemptOutcome {
  if (result.statusCode !== null) {
    return result.statusCode >= 200 && result.statusCode < 300 ? 'succeeded' : 'http_error';
  }
  return result.error?.startsWith('timed out') ? 'timeout' : 'network_error';
}

/**
 * Wires delivery into the engine: the `webhook.attempt` job (sync) prepares the attempt and hands
 * it to the dispatcher (async); the outcome is recorded through the domain with the attempt's own
 * due time as `now`, then made durable without holding anything up. Attempts interrupted by a
 * restart are scheduled again.
 */
export function createWebhookDelivery(options: WebhookDeliveryOptions): WebhookDelivery {
  const { engine, store, persistence, onError } = options;
  const undici = options.send ? undefined : createUndiciSender({ publicOnly: options.publicOnly === true });
  const send = options.send ?? (undici as { send: WebhookSender }).send;

  // Attempts handed to the dispatcher and not settled yet, those of them on the wire, and those a
  // restore abandoned (their slot is given back as usual, nothing else happens).
  const outstanding = new Set<PreparedAttempt>();
  const sending = new Set<PreparedAttempt>();
  const abandoned = new WeakSet<PreparedAttempt>();
  const dispatcher = new WebhookDispatcher({
    send,
    realNow: options.realNow,
    timeoutMs: options.timeoutMs,
    concurrency: options.concurrency,
    perPartner: options.perPartner,
    onError,
    start: (attempt) => {
      const go = !abandoned.has(attempt) && markSending(engine.context(attempt.partnerId), attempt);
      if (go) sending.add(attempt);
      else outstanding.delete(attempt);
      return go;
    },
    record: (attempt, result) => {
      outstanding.delete(attempt);
      sending.delete(attempt);
      options.onAttempt?.(outcomeOf(result));
      if (abandoned.has(attempt)) return;
      recordAttemptOutcome(engine.context(attempt.partnerId, fixedClock(attempt.dueAtMs)), attempt, result);
      persistence.flush().catch((error: unknown) => {
        // Rolled back: the delivery is sent again once the store can write (resumeAfterRollback).
        if (!(error instanceof StorageUnavailableError))
          onError('persisting a webhook delivery outcome failed', error);
      });
    },
  });

  // Attempts waiting for the flush that makes them (and the event behind them) durable.
  const unflushed = new Set<Promise<void>>();
  engine.handle(
    ATTEMPT_JOB,
    (ctx, payload) => {
      const deliveryId = String(payload.delivery_id);
      const tried = store.deliveries.get(deliveryId)?.attempts.length ?? 0;
      const attempt = beginAttempt(ctx, deliveryId);
      if (!attempt) {
        // Webhook chaos failed it without sending.
        if ((store.deliveries.get(deliveryId)?.attempts.length ?? 0) > tried) options.onAttempt?.('dropped');
        return;
      }
      outstanding.add(attempt);
      // Sent only once durable: an event whose write fails is rolled back and never reaches anyone.
      const waiting: Promise<void> = persistence
        .flush()
        .then(
          () => sendIfKept(attempt),
          (error: unknown) => {
            if (error instanceof WriteFailedError && !error.partnerIds.includes(attempt.partnerId)) {
              sendIfKept(attempt); // another partner's rows were refused; this one's were written
              return;
            }
            outstanding.delete(attempt);
            if (!(error instanceof StorageUnavailableError))
              onError('persisting a webhook attempt failed', error);
          },
        )
        .finally(() => unflushed.delete(waiting));
      unflushed.add(waiting);
    },
    idsPayload({ delivery_id: 'dlv_' }),
  );
  // An attempt a restore abandoned meanwhile is not sent.
  const sendIfKept = (attempt: PreparedAttempt): void => {
    if (outstanding.has(attempt)) dispatcher.dispatch(attempt);
  };

  const abandonPartner = (partnerId: string): AbandonedAttempt[] => {
    const out: AbandonedAttempt[] = [];
    for (const attempt of outstanding) {
      if (attempt.partnerId !== partnerId) continue;
      abandoned.add(attempt);
      outstanding.delete(attempt);
      out.push({
        deliveryId: attempt.deliveryId,
        attemptNumber: attempt.attemptNumber,
        sent: sending.has(attempt),
      });
    }
    return out;
  };

  // Attempts that were waiting for a slot or in flight when the partner's previous owner stopped.
  const resumePartner = (partnerId: string): void => {
    for (const status of ['queued', 'sending']) {
      for (const row of [...store.deliveryIdx.byStatus.rows(`${partnerId}|${status}`)]) {
        resumeInterruptedDelivery(engine.context(partnerId), row.id);
      }
    }
  };
  for (const partner of store.partners.values()) resumePartner(partner.id);
  // A partner that leaves memory takes nothing along: what waits is never sent from here, and the
  // outcome of what is on the wire is not recorded (its new owner, if any, sends it again).
  store.onEvicted((partnerId) => void abandonPartner(partnerId));
  // A removal that could not be written put the partner back: its deliveries go out again.
  store.removals.onRestored(resumePartner);

  const busy = (partnerId: string): boolean => {
    for (const attempt of outstanding) if (attempt.partnerId === partnerId) return true;
    return (
      store.deliveryIdx.byStatus.has(`${partnerId}|queued`) ||
      store.deliveryIdx.byStatus.has(`${partnerId}|sending`)
    );
  };

  const resumeAfterRollback = (): void => {
    const inMemory = new Set([...outstanding].map((attempt) => attempt.deliveryId));
    for (const partner of store.partners.values()) {
      for (const status of ['queued', 'sending']) {
        for (const row of [...store.deliveryIdx.byStatus.rows(`${partner.id}|${status}`)]) {
          if (!inMemory.has(row.id)) resumeInterruptedDelivery(engine.context(partner.id), row.id);
        }
      }
    }
  };

  /** Whether some partner has a job due now that its timer is about to run. */
  const dueJobWaiting = (): boolean => {
    for (const partner of store.partners.values()) {
      const next = engine.scheduler.next(partner.id);
      if (next && next.due_at_ms <= engine.clock(partner.id).nowMs()) return true;
    }
    return false;
  };

  return {
    async idle(timeoutMs = 300_000) {
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        if (unflushed.size > 0 || dispatcher.pending > 0) {
          let timer: NodeJS.Timeout | undefined;
          const timeout = new Promise<void>((resolve) => {
            timer = setTimeout(resolve, Math.max(1, deadline - performance.now()));
          });
          const settled = unflushed.size > 0 ? Promise.race(unflushed) : dispatcher.settled();
          await Promise.race([settled, timeout]);
          clearTimeout(timer);
        } else if (dueJobWaiting()) {
          await delay(1);
        } else {
          return;
        }
        if (performance.now() > deadline) {
          throw new Error(`webhook deliveries did not settle within ${timeoutMs} ms`);
        }
      }
    },
    close: async () => {
      await undici?.close();
    },
    resumePartner,
    resumeAfterRollback,
    abandonPartner,
    busy,
  };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
