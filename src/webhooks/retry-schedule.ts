const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * Waits before each retry, measured from the due time of the attempt that failed, on the partner
 * clock: attempt 1 is immediate, attempt 2 follows 5 s after it, ..., attempt 8 is the last.
 */
export const RETRY_SCHEDULE_MS: readonly number[] = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
];

/** Attempts a delivery gets in all: the first one plus one per retry. */
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length + 1;

/** Statuses whose `Retry-After` is honoured when it asks for a longer wait than the schedule. */
export const RETRY_AFTER_STATUSES: ReadonlySet<number> = new Set([429, 502, 504]);

/** A `Retry-After` longer than this is capped, so one answer cannot park a delivery for months. */
export const MAX_RETRY_AFTER_MS = 24 * HOUR;

/** What one attempt came to: a 2xx, a 410 Gone, or anything else (other status, network error, timeout). */
export type AttemptOutcome =
  | { kind: 'succeeded'; statusCode: number }
  | { kind: 'gone'; statusCode: 410 }
  | { kind: 'failed'; statusCode: number | null };

/** Classifies a receiver's answer; `null` means no HTTP answer (connection error or timeout). */
export function classifyResponse(statusCode: number | null): AttemptOutcome {
  if (statusCode !== null && statusCode >= 200 && statusCode < 300) return { kind: 'succeeded', statusCode };
  if (statusCode === 410) return { kind: 'gone', statusCode };
  return { kind: 'failed', statusCode };
}

/**
 * When the next attempt is due, or null when there is none (success, 410, or the schedule is
 * used up). `attemptNumber` is the 1-based number of the attempt that just ended and `nowMs` its
 * due time. A `Retry-After` (seconds) on 429/502/504 wins when it asks for more than the schedule.
 */
export function nextAttemptAt(
  attemptNumber: number,
  outcome: AttemptOutcome,
  retryAfterSeconds: number | null,
  nowMs: number,
): number | null {
  if (outcome.kind !== 'failed') return null;
  const scheduled = RETRY_SCHEDULE_MS[attemptNumber - 1];
  if (scheduled === undefined) return null;
  const honoured =
    retryAfterSeconds !== null && outcome.statusCode !== null && RETRY_AFTER_STATUSES.has(outcome.statusCode);
  const asked = honoured ? Math.min(retryAfterSeconds * SECOND, MAX_RETRY_AFTER_MS) : 0;
  return nowMs + Math.max(scheduled, asked);
}

/**
 * Reads a `Retry-After` header: delay-seconds, or an HTTP-date taken relative to the real time
 * the answer arrived. Null when absent or unreadable.
 */
export function parseRetryAfter(header: string | null | undefined, realNowMs: number): number | null {
  if (header === null || header === undefined) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text);
  // An HTTP-date names its weekday and month; anything else (e.g. "-5", which Date.parse reads as
  // a year) is not one.
  if (!/^[A-Za-z]{3}, /.test(text)) return null;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return null;
  return Math.max(0, Math.ceil((date - realNowMs) / SECOND));
}
