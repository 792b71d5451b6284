import { describe, expect, it } from 'vitest';
import {
  classifyResponse,
  MAX_ATTEMPTS,
  MAX_RETRY_AFTER_MS,
  nextAttemptAt,
  parseRetryAfter,
  RETRY_SCHEDULE_MS,
} from './retry-schedule.js';

const NOW = 1_000_000;
const failed = (statusCode: number | null) => classifyResponse(statusCode);

describe('nextAttemptAt', () => {
  it('follows 5 s, 5 m, 30 m, 2 h, 5 h, 10 h, 10 h from the failed attempt, then stops', () => {
    const waits = [5, 300, 1800, 7200, 18_000, 36_000, 36_000].map((s) => s * 1000);
    expect(RETRY_SCHEDULE_MS).toEqual(waits);
    expect(MAX_ATTEMPTS).toBe(8);
    for (const [i, wait] of waits.entries()) {
      expect(nextAttemptAt(i + 1, failed(500), null, NOW)).toBe(NOW + wait);
    }
    expect(nextAttemptAt(8, failed(500), null, NOW)).toBeNull();
  });

  it('stops on success and on 410 Gone', () => {
    expect(nextAttemptAt(1, classifyResponse(200), null, NOW)).toBeNull();
    expect(nextAttemptAt(1, classifyResponse(299), null, NOW)).toBeNull();
    expect(nextAttemptAt(1, classifyResponse(410), null, NOW)).toBeNull();
  });

  it('retries timeouts, connection errors, 3xx, 4xx and 5xx', () => {
    for (const status of [null, 301, 400, 404, 500, 503]) {
      expect(nextAttemptAt(1, failed(status), null, NOW)).toBe(NOW + 5000);
    }
  });

  it('honours Retry-After on 429, 502 and 504 only when it asks for more than the schedule', () => {
    for (const status of [429, 502, 504]) {
      expect(nextAttemptAt(1, failed(status), 60, NOW)).toBe(NOW + 60_000);
      expect(nextAttemptAt(2, failed(status), 60, NOW)).toBe(NOW + 300_000);
      expect(nextAttemptAt(1, failed(status), 2, NOW)).toBe(NOW + 5000);
    }
    expect(nextAttemptAt(1, failed(503), 60, NOW)).toBe(NOW + 5000);
    expect(nextAttemptAt(1, failed(500), 60, NOW)).toBe(NOW + 5000);
    // Still bounded by the number of attempts.
    expect(nextAttemptAt(8, failed(429), 60, NOW)).toBeNull();
  });

  it('caps a huge Retry-After at one day', () => {
    expect(nextAttemptAt(1, failed(429), 10 ** 9, NOW)).toBe(NOW + MAX_RETRY_AFTER_MS);
  });
});

describe('classifyResponse', () => {
  it('sorts answers into succeeded, gone and failed', () => {
    expect(classifyResponse(204)).toEqual({ kind: 'succeeded', statusCode: 204 });
    expect(classifyResponse(410)).toEqual({ kind: 'gone', statusCode: 410 });
    expect(classifyResponse(199)).toEqual({ kind: 'failed', statusCode: 199 });
    expect(classifyResponse(null)).toEqual({ kind: 'failed', statusCode: null });
  });
});

describe('parseRetryAfter', () => {
  it('reads delay-seconds and HTTP-dates (relative to real now), ignoring garbage', () => {
    const real = Date.parse('2026-03-02T12:00:00Z');
    expect(parseRetryAfter('120', real)).toBe(120);
    expect(parseRetryAfter(' 7 ', real)).toBe(7);
    expect(parseRetryAfter('Mon, 02 Mar 2026 12:02:00 GMT', real)).toBe(120);
    expect(parseRetryAfter('Mon, 02 Mar 2026 11:00:00 GMT', real)).toBe(0);
    expect(parseRetryAfter('soon', real)).toBeNull();
    expect(parseRetryAfter('-5', real)).toBeNull();
    expect(parseRetryAfter(null, real)).toBeNull();
  });
});
