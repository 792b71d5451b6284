import type { AttemptResult, PreparedAttempt } from './deliveries.js';
import { parseRetryAfter } from './retry-schedule.js';
import type { WebhookSender } from './sender.js';
import { signatureHeader } from './signing.js';

export interface DispatcherOptions {
  send: WebhookSender;
  /** Told how each attempt ended (records it and schedules what follows). */
  record: (attempt: PreparedAttempt, result: AttemptResult) => void;
  /** Real wall-clock ms: `webhook-timestamp` is real time, so receivers' tolerance checks pass after clock jumps. */
  realNow: () => number;
  /** An attempt without a complete answer within this many ms failed. */
  timeoutMs: number;
  /** Attempts in flight at once; the rest wait in order. */
  concurrency?: number;
  /** Monotonic ms for `duration_ms`. */
  elapsed?: () => number;
  onError: (message: string, error: unknown) => void;
}

export const DEFAULT_CONCURRENCY = 64;
const USER_AGENT = 'credit-sandbox-webhooks/1 (+Standard Webhooks)';

/**
 * Sends prepared attempts off the request path: `dispatch` only queues and returns, so a job
 * handler (and so an API call or a clock advance) never waits for a receiver. Each attempt is
 * signed when it leaves (real `webhook-timestamp`), sent with a timeout, and its outcome handed
 * to `record`. A hanging receiver holds one slot until the timeout, nothing more.
 */
export class WebhookDispatcher {
  private readonly queue: PreparedAttempt[] = [];
  private head = 0;
  private active = 0;
  private waiters: (() => void)[] = [];
  private readonly concurrency: number;
  private readonly elapsed: () => number;

  constructor(private readonly options: DispatcherOptions) {
    this.concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
    this.elapsed = options.elapsed ?? (() => performance.now());
  }

  dispatch(attempt: PreparedAttempt): void {
    this.queue.push(attempt);
    this.pump();
  }

  /** Attempts queued or in flight. */
  get pending(): number {
    return this.active + this.queue.length - this.head;
  }

  /** Resolves once nothing is queued or in flight. */
  settled(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private pump(): void {
    while (this.active < this.concurrency && this.head < this.queue.length) {
      const attempt = this.queue[this.head] as PreparedAttempt;
      this.head++;
      this.active++;
      void this.run(attempt).finally(() => {
        this.active--;
        this.pump();
        if (this.pending === 0) this.wakeWaiters();
      });
    }
    // Drop the consumed prefix once it dominates, so a long-lived queue does not grow forever.
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
  }

  private wakeWaiters(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  private async run(attempt: PreparedAttempt): Promise<void> {
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
    let result: AttemptResult;
    try {
      const answer = await this.options.send({
        url: attempt.url,
        headers,
        body: attempt.payload,
        signal: controller.signal,
      });
      result = {
        statusCode: answer.statusCode,
        durationMs: this.elapsed() - started,
        error: null,
        retryAfterSeconds: parseRetryAfter(answer.retryAfter, this.options.realNow()),
      };
    } catch (error) {
      result = {
        statusCode: null,
        durationMs: this.elapsed() - started,
        error: controller.signal.aborted
          ? `timed out after ${timeoutMs} ms without a complete answer`
          : describeError(error),
        retryAfterSeconds: null,
      };
    } finally {
      clearTimeout(timer);
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
}

/** A short, useful reason for a failed connection (undici nests the system error in `cause`). */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause : undefined;
  const code = (cause as { code?: string } | undefined)?.code ?? (error as { code?: string }).code;
  const message = cause?.message ?? error.message;
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}
