import { CodedError } from '../lib/coded-error.js';

/** How often a backend that cannot write tries again; also what `Retry-After` tells clients. */
export const STORAGE_RETRY_MS = 1000;

/**
 * A write refused because the backend cannot make changes durable now (the disk is full, the
 * journal cannot be written, PostgreSQL is unreachable). Nothing of the refused write was kept.
 * The HTTP layer answers it as `storage_unavailable` with `Retry-After`.
 */
export class StorageUnavailableError extends CodedError {
  override name = 'StorageUnavailableError';

  constructor(
    /** Why, for people: "the disk is full (ENOSPC)". */
    readonly reason: string,
    readonly retryAfterSeconds: number,
    options: { cause?: unknown } = {},
  ) {
    super(
      'storage_unavailable',
      `The sandbox cannot save changes right now: ${reason}. Nothing of this request was applied; retry after Retry-After seconds (a POST with the same Idempotency-Key is safe to send again).`,
    );
    if (options.cause !== undefined) this.cause = options.cause;
  }
}

/** What `/healthz` shows of the store. */
export type StorageStatus = { writable: true } | { writable: false; reason: string; since: string };

export interface StorageHealthOptions {
  /**
   * Tries to write once (a small entry, a query); rejects while the backend still cannot. Without
   * one the backend never fails (memory).
   */
  probe?: () => Promise<void>;
  /** Why a failed probe failed, for people (default: describeStorageError). */
  describe?: (error: unknown) => string;
  retryMs?: number;
  /** Real wall-clock ms, for `since`. */
  now?: () => number;
}

/**
 * Whether the store can make changes durable now, kept by its persistence backend and read by
 * the HTTP layer. When a write fails the backend rolls back every change that was not durable and
 * calls `failed`: from then on writes are refused up front (`writable` false) and a probe runs
 * every `retryMs`, until it succeeds; listeners hear of each change once (logged once, not per
 * request).
 *
 * Writers (requests that may write) `enter` before they run and `leave` after their flush. A
 * rollback starts a new epoch: a writer that entered before it may have lost its changes, so it
 * must not answer success (its epoch is old), and the store is not writable again before every
 * such writer has left — otherwise what it changed after the rollback could be written while it
 * answers a failure.
 */
export class StorageHealth {
  /** Rollbacks so far. */
  epoch = 0;
  private current = 0;
  private stale = 0;
  private failure: { reason: string; since: string } | null = null;
  private timer: NodeJS.Timeout | undefined;
  private probing = false;
  private readonly listeners: ((status: StorageStatus) => void)[] = [];
  private readonly retryMs: number;
  private readonly now: () => number;

  constructor(private readonly options: StorageHealthOptions = {}) {
    this.retryMs = options.retryMs ?? STORAGE_RETRY_MS;
    this.now = options.now ?? Date.now;
  }

  get writable(): boolean {
    return this.failure === null;
  }

  status(): StorageStatus {
    return this.failure ? { writable: false, ...this.failure } : { writable: true };
  }

  get retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(this.retryMs / 1000));
  }

  /** A writer starts; returns its epoch, to compare once it is done and to give to `leave`. */
  enter(): number {
    this.current++;
    return this.epoch;
  }

  leave(epoch: number): void {
    if (epoch === this.epoch) this.current--;
    else this.stale--;
  }

  /** Changes that were not durable were rolled back: writers in flight may have lost theirs. */
  rolledBack(): void {
    this.epoch++;
    this.stale += this.current;
    this.current = 0;
  }

  /**
   * A write failed for `error` (`reason`: for people): refuse writes until a probe succeeds.
   * Returns the error to throw.
   */
  failed(error: unknown, reason = describeStorageError(error)): StorageUnavailableError {
    if (!this.failure && this.options.probe) {
      this.failure = { reason, since: new Date(this.now()).toISOString() };
      this.timer = setInterval(() => void this.retry(), this.retryMs);
      this.timer.unref();
      this.tell();
    }
    return new StorageUnavailableError(this.failure?.reason ?? reason, this.retryAfterSeconds, {
      cause: error,
    });
  }

  /** The error a refused write gets while the store cannot write. */
  refusal(): StorageUnavailableError {
    return new StorageUnavailableError(
      this.failure?.reason ?? 'a change made while this request ran could not be saved and was rolled back',
      this.retryAfterSeconds,
    );
  }

  /**
   * Probes now (the timer does this every `retryMs`); resolves whether the store is writable.
   * Waits while writers from before the failure are still in flight.
   */
  async retry(): Promise<boolean> {
    if (!this.failure) return true;
    const probe = this.options.probe;
    if (!probe || this.stale > 0 || this.probing) return false;
    this.probing = true;
    try {
      await probe();
    } catch (error) {
      // Still failing, perhaps for another reason now (shown by /healthz, not logged again).
      if (this.failure) this.failure.reason = (this.options.describe ?? describeStorageError)(error);
      return false;
    } finally {
      this.probing = false;
    }
    if (!this.failure || this.stale > 0) return !this.failure;
    this.failure = null;
    this.stop();
    this.tell();
    return true;
  }

  /** Told once when the store stops being writable, and once when it is writable again. */
  onChange(listener: (status: StorageStatus) => void): void {
    if (this.options.probe) this.listeners.push(listener);
  }

  /** Stops probing (the backend closes). */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private tell(): void {
    const status = this.status();
    for (const listener of this.listeners) {
      try {
        listener(status);
      } catch {
        // A listener that throws (a logger) must not fail the write path or the probe timer.
      }
    }
  }
}

const REASONS: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EIO: 'the disk reported an I/O error',
  EROFS: 'the file system is read-only',
  EACCES: 'the data files are not writable',
  EPERM: 'the data files are not writable',
  EBADF: 'the journal file is no longer open',
};

/** "the disk is full (ENOSPC)": what a person needs to know of a storage error. */
export function describeStorageError(error: unknown): string {
  if (error instanceof StorageUnavailableError) return error.reason;
  const code = (error as { code?: unknown } | null)?.code;
  const known = typeof code === 'string' ? REASONS[code] : undefined;
  if (known) return `${known} (${code})`;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
}
