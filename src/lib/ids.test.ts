import { describe, expect, it } from 'vitest';
import { counterIds, randomIds, sequentialIds } from './ids.js';

describe('randomIds', () => {
  it('is the prefix and 32 lowercase hex characters, unique across many pool refills', () => {
    const seen = new Set<string>();
    // 256 ids a pool: 5,000 ids draw it 20 times.
    for (let k = 0; k < 5000; k++) {
      const id = randomIds('cust_');
      expect(id).toMatch(/^cust_[0-9a-f]{32}$/);
      seen.add(id);
    }
    expect(seen.size).toBe(5000);
  });

  it('spreads its characters evenly over the 16 hex digits', () => {
    const counts = new Map<string, number>();
    for (let k = 0; k < 2000; k++) {
      for (const ch of randomIds('').split('')) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    }
    // 64,000 characters, 4,000 expected per digit; a broken draw (a byte reused, half a byte
    // ignored) skews this far beyond ±10 %.
    expect(counts.size).toBe(16);
    for (const n of counts.values()) expect(Math.abs(n - 4000)).toBeLessThan(400);
  });
});

describe('sequentialIds and counterIds', () => {
  it('count up with the prefix', () => {
    const next = sequentialIds();
    expect(next('evt_')).toBe(`evt_${'1'.padStart(32, '0')}`);
    expect(next('evt_')).toBe(`evt_${'2'.padStart(32, '0')}`);
    const counter = counterIds();
    expect(counter('req_')).toMatch(/^req_[0-9a-f]{16}0{15}1$/);
    expect(counter('req_')).toMatch(/^req_[0-9a-f]{16}0{15}2$/);
  });
});
