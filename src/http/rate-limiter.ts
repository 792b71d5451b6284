/**
 * Token buckets, one per partner, refilled continuously at `rate` tokens a second up to `rate`
 * (one second of burst). Uses real time, not the partner clock: a rate limit protects the process
 * from real load, and a clock jump must not refill or drain a bucket.
 */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the bucket is full again. */
  resetSeconds: number;
  /** Seconds to wait before a request would be allowed (0 when allowed). */
  retryAfterSeconds: number;
}

interface Bucket {
  tokens: number;
  updatedMs: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  /** After `allow`: what `take` would have answered as `remaining` and `resetSeconds`. */
  lastRemaining = 0;
  lastResetSeconds = 0;

  constructor(
    private readonly rate: number,
    private readonly realNow: () => number,
  ) {}

  /** Forgets a partner's bucket (it left this instance's memory; a new one starts full). */
  forget(key: string): void {
    this.buckets.delete(key);
  }

  take(key: string): RateDecision {
    const now = this.realNow();
    const bucket = this.buckets.get(key) ?? { tokens: this.rate, updatedMs: now };
    bucket.tokens = Math.min(this.rate, bucket.tokens + ((now - bucket.updatedMs) / 1000) * this.rate);
    bucket.updatedMs = now;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    this.buckets.set(key, bucket);
    return {
      allowed,
      limit: this.rate,
      remaining: Math.floor(bucket.tokens),
      resetSeconds: Math.ceil((this.rate - bucket.tokens) / this.rate),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - bucket.tokens) / this.rate)),
    };
  }

  /**
   * `take` without building a decision (the request path): true when a token was taken, with
   * `lastRemaining` / `lastResetSeconds` set; false takes nothing (the caller then answers 429
   * through `take`, which refills from the same instant and refuses the same way).
   */
  allow(key: string): boolean {
    const now = this.realNow();
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { tokens: this.rate, updatedMs: now };
      this.buckets.set(key, bucket);
    }
    const tokens = Math.min(this.rate, bucket.tokens + ((now - bucket.updatedMs) / 1000) * this.rate);
    if (tokens < 1) return false;
    bucket.tokens = tokens - 1;
    bucket.updatedMs = now;
    this.lastRemaining = Math.floor(bucket.tokens);
    this.lastResetSeconds = Math.ceil((this.rate - bucket.tokens) / this.rate);
    return true;
  }
}

const limiters = new WeakMap<object, RateLimiter>();

/** The one limiter of an app's dependencies (`owner`), whichever entry of the request path asks. */
export function sharedRateLimiter(owner: object, rate: number, realNow: () => number): RateLimiter {
  let limiter = limiters.get(owner);
  if (!limiter) {
    limiter = new RateLimiter(rate, realNow);
    limiters.set(owner, limiter);
  }
  return limiter;
}
