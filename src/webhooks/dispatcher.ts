import type { AttemptResult, PreparedAttempt } from './attempts.js';
import { parseRetryAfter } from './retry-schedule.js';
import { SendQueue } from './send-queue.js';
import type { WebhookSender } from './sender.js';
import { signatureHeader } from './signing.js';

export interface DispatcherOptions {
  send: WebhookSender;
  /** Told how each attempt ended (records it and schedules what follows). */
  record: (attempt: PreparedAttempt, result: AttemptResult) => void;
  /**
   * Told when an attempt gets its slot, right before it is sent; answering false drops it unsent
   * (its delivery was cancelled or its endpoint disabled while it waited).
   */
  start?: (attempt: PreparedAttempt) => boolean;
  /** Real wall-clock ms: `webhook-timestamp` is real time, so receivers' tolerance checks pass after clock jumps. */
  realNow: () => number;
  /** An attempt without a complete answer within this many ms failed. */
  timeoutMs: number;
  /** Attempts in flight at once, all partners together; the rest wait for a slot. */
  concurrency?: number;
  /** Attempts one partner may have in flight at once (one per endpoint in any case). */
  perPartner?: number;
  /** Monotonic ms for `duration_ms`. */
  elapsed?: () => number;
  onError: (message: string, error: unknown) => void;
}

export const DEFAULT_CONCURRENCY = 64;
/** A quarter of the slots: a partner whose receivers all hang leaves the rest to the others. */
export const DEFAULT_PARTNER_CONCURRENCY = 16;
const USER_AGENT = 'credit-sandbox-webhooks/1 (+Standard Webhooks)';

/**
 * Sends prepared attempts off the request path: `dispatch` only queues and returns, so a job
 * handler (and so an API call or a clock advance) never waits for a receiver. Each endpoint sends
 * one attempt at a time in event-log order, each partner holds a bounded share of the slots (see
 * SendQueue). Each attempt is signed when it leaves (real `webhook-timestamp`), sent with a
 * timeout, and its outcome handed to `record`. A hanging receiver holds one slot until the
 * timeout, and delays only its own endpoint's later events.
 */
export class WebhookDispatcher {
  private readonly queue: SendQueue<PreparedAttempt>;
  private waiters: (() => void)[] = [];
  private pumpScheduled = false;
  private readonly elapsed: () => number;

  constructor(private readonly options: DispatcherOptions) {
    this.queue = new SendQueue({
      total: options.concurrency ?? DEFAULT_CONCURRENCY,
      perPartner: options.perPartner ?? DEFAULT_PARTNER_CONCURRENCY,
    });
    this.elapsed = options.elapsed ?? (() => performance.now());
  }

  dispatch(attempt: PreparedAttempt): void {
    this.queue.push(attempt);
    // Deferred to the end of the current synchronous run: the attempts of one clock advance or
    // timer wake are all queued (and so sorted by event order) before the first one leaves.
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    queueMicrotask(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  /** Attempts queued or in flight. */
  get pending(): number {
    return this.queue.active + this.queue.waiting;
  }

  /** Resolves once nothing is queued or in flight. */
  settled(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private pump(): void {
    for (;;) {
      const attempt = this.queue.take();
      if (!attempt) break;
      if (!this.begin(attempt)) {
        this.queue.done(attempt);
        continue;
      }
      void this.run(attempt).finally(() => {
        this.queue.done(attempt);
        this.pump();
      });
    }
    if (this.pending === 0) this.wakeWaiters();
  }

  private begin(attempt: PreparedAttempt): boolean {
    if (!this.options.start) return true;
    try {
      return this.options.start(attempt);
    } catch (error) {
      this.options.onError(`starting webhook attempt of ${attempt.deliveryId} failed`, error);
      return false;
    }
  }

  private wakeWaiters(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  private async run(attempt: PreparedAttempt): Promise<void> {
    let result: AttemptResult;
    try {
      result = await this.send(attempt);
    } catch (error) {
      // Signing or building the request failed (a secret that cannot be read): a failed attempt,
      // retried on the schedule, never an exception nobody catches.
      result = {
        statusCode: null,
        durationMs: 0,
        responseBody: null,
        error: `the sandbox could not send this attempt: ${describeError(error)}`,
        retryAfterSeconds: null,
      };
      this.options.onError(
        `webhook attempt ${attempt.attemptNumber} of ${attempt.deliveryId} not sent`,
        error,
      );
    }
    try {
      this.options.record(attempt, result);
    } catch (error) {
      this.options.onError(
        `recording webhook attempt ${attempt.attemptNumber} of ${attempt.deliveryId} failed`,
        error,
      );
    }
  }

  /** Signs and sends one attempt; what the receiver did (or did not) answer. */
  private async send(attempt: PreparedAttempt): Promise<AttemptResult> {
    const { timeoutMs } = this.options;
    const sentAt = new Date(this.options.realNow());
    const headers = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'webhook-id': attempt.msgId,
      'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
      'webhook-signature': signatureHeader(attempt.secrets, attempt.msgId, sentAt, attempt.payload),
    };
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const started = this.elapsed();
    try {
      const answer = await this.options.send({
        url: attempt.url,
        headers,
        body: attempt.payload,
        signal: controller.signal,
      });
      return {
        statusCode: answer.statusCode,
        durationMs: this.elapsed() - started,
        responseBody: answer.body,
        error: null,
        retryAfterSeconds: parseRetryAfter(answer.retryAfter, this.options.realNow()),
      };
    } catch (error) {
      return {
        statusCode: null,
        durationMs: this.elapsed() - started,
        responseBody: null,
        error: controller.signal.aborted
          ? `timed out after ${timeoutMs} ms without a complete answer`
          : describeError(error),
        retryAfterSeconds: null,
      };
    } finally {
      clearTimeout(timer);
    }
  }
}

/** A short, useful reason for a failed connection (undici nests the system error in `cause`). */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause : undefined;
  const code = (cause as { code?: string } | undefined)?.code ?? (error as { code?: string }).code;
  const message = cause?.message ?? error.message;
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}
