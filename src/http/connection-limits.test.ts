import { describe, expect, it } from 'vitest';
import { slowClientServerOptions } from './connection-limits.js';

describe('slowClientServerOptions', () => {
  it('checks connections four times per shortest limit, at most once a second, at least every 50 ms', () => {
    // How late a slow client is cut at worst: this interval after its limit (slow-clients.test.ts).
    expect(slowClientServerOptions({ headersTimeoutMs: 400, requestTimeoutMs: 800 })).toEqual({
      headersTimeout: 400,
      requestTimeout: 800,
      connectionsCheckingInterval: 100,
    });
    const interval = (headersTimeoutMs: number, requestTimeoutMs: number) =>
      slowClientServerOptions({ headersTimeoutMs, requestTimeoutMs }).connectionsCheckingInterval;
    expect(interval(5_000, 10_000)).toBe(1_000);
    expect(interval(300, 5_000)).toBe(75);
    expect(interval(100, 100)).toBe(50);
  });
});
