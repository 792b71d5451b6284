import { fixedClock } from '../engine/clock.js';
import type { Engine } from '../engine/engine.js';
import type { Persistence } from '../store/persistence.js';
import type { Store } from '../store/store.js';
import { ATTEMPT_JOB, beginAttempt, recordAttemptOutcome, resumeInterruptedDelivery } from './deliveries.js';
import { WebhookDispatcher } from './dispatcher.js';
import { createUndiciSender, type WebhookSender } from './sender.js';

/** The running webhook delivery, as the app and tests see it. */
export interface WebhookDelivery {
  /**
   * Resolves when no attempt is due, queued or in flight (every delivery that can go out now has
   * settled). Tests and benchmarks await this instead of sleeping; rejects after `timeoutMs`.
   */
  idle(timeoutMs?: number): Promise<void>;
  /** Closes the outgoing connection pool. */
  close(): Promise<void>;
  /** Re-schedules a partner's attempts that were in flight when its rows were written (takeover). */
  resumePartner(partnerId: string): void;
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
  onError: (message: string, error: unknown) => void;
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

  const dispatcher = new WebhookDispatcher({
    send,
    realNow: options.realNow,
    timeoutMs: options.timeoutMs,
    concurrency: options.concurrency,
    onError,
    record: (attempt, result) => {
      recordAttemptOutcome(engine.context(attempt.partnerId, fixedClock(attempt.dueAtMs)), attempt, result);
      persistence
        .flush()
        .catch((error: unknown) => onError('persisting a webhook delivery outcome failed', error));
    },
  });

  engine.handle(ATTEMPT_JOB, (ctx, payload) => {
    const attempt = beginAttempt(ctx, String(payload.delivery_id));
    if (attempt) dispatcher.dispatch(attempt);
  });

  const resumePartner = (partnerId: string): void => {
    for (const row of [...store.deliveryIdx.byStatus.rows(`${partnerId}|sending`)]) {
      resumeInterruptedDelivery(engine.context(partnerId), row.id);
    }
  };
  for (const partner of store.partners.values()) resumePartner(partner.id);

  /** Whether some partner has a job due now that its timer is about to run. */
  const dueJobWaiting = (): boolean => {
    for (const partner of store.partners.values()) {
      const next = engine.scheduler.next(partner.id);
      if (next && next.due_at_ms <= engine.clock(partner.id).nowMs()) return true;
    }
    return false;
  };

  return {
    async idle(timeoutMs = 10_000) {
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        if (dispatcher.pending > 0) {
          let timer: NodeJS.Timeout | undefined;
          const timeout = new Promise<void>((resolve) => {
            timer = setTimeout(resolve, Math.max(1, deadline - performance.now()));
          });
          await Promise.race([dispatcher.settled(), timeout]);
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
  };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
