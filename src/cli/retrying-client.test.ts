import { describe, expect, it } from 'vitest';
import { delayMs } from './retrying-client.js';

const answer = (headers: Record<string, string>) => ({ status: 503, headers, body: undefined });

describe('delayMs', () => {
  it('honours Retry-After (seconds), at most a minute', () => {
    expect(delayMs(answer({ 'retry-after': '5' }), 1)).toBe(5000);
    expect(delayMs(answer({ 'retry-after': '0' }), 3)).toBe(0);
    expect(delayMs(answer({ 'retry-after': '120' }), 1)).toBe(60_000);
  });

  it('backs off from 100 ms, doubling up to 2 s, without Retry-After or without an answer', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((tries) => delayMs(answer({}), tries))).toEqual([
      100, 200, 400, 800, 1600, 2000, 2000,
    ]);
    expect(delayMs(undefined, 2)).toBe(200);
    expect(delayMs(answer({ 'retry-after': 'Wed, 21 Oct 2026 07:28:00 GMT' }), 1)).toBe(100);
  });
});
