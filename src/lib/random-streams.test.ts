import { describe, expect, it } from 'vitest';
import { recordCounters, seededKey, seededStreams, unseededStreams } from './random-streams.js';

describe('seeded random streams', () => {
  it('gives the same values for the same seed, whatever the other streams drew', () => {
    const one = seededStreams(
      's',
      recordCounters(() => ({})),
    );
    const counters: Record<string, number> = {};
    const two = seededStreams(
      's',
      recordCounters(() => counters),
    );
    two.partner('ptn_b').ids('x_');
    two.server.randomBytes(40);
    expect(two.partner('ptn_a').ids('cust_')).toBe(one.partner('ptn_a').ids('cust_'));
    expect(one.partner('ptn_a').ids('cust_')).toMatch(/^cust_[0-9a-f]{32}$/);
  });

  it('continues from the stored counters after a restart instead of repeating values', () => {
    const counters: Record<string, number> = {};
    const before = seededStreams(
      's',
      recordCounters(() => counters),
    );
    const first = before.partner('p').ids('a_');
    const restarted = seededStreams(
      's',
      recordCounters(() => counters),
    );
    expect(restarted.partner('p').ids('a_')).not.toBe(first);
  });

  it('differs between seeds and between partners, and gives exactly the bytes asked for', () => {
    const a = seededStreams(
      'a',
      recordCounters(() => ({})),
    );
    const b = seededStreams(
      'b',
      recordCounters(() => ({})),
    );
    expect(a.partner('p').ids('x_')).not.toBe(b.partner('p').ids('x_'));
    expect(a.partner('p').ids('x_')).not.toBe(a.partner('q').ids('x_'));
    expect(a.server.randomBytes(70)).toHaveLength(70);
    expect(seededKey('a', 'k').equals(seededKey('a', 'k'))).toBe(true);
    expect(seededKey('a', 'k').equals(seededKey('b', 'k'))).toBe(false);
  });

  it('without a seed, every partner shares the given source', () => {
    const source = { ids: (p: string) => `${p}1`, randomBytes: (n: number) => Buffer.alloc(n) };
    expect(unseededStreams(source).partner('p')).toBe(source);
    expect(unseededStreams(source).seeded).toBe(false);
  });
});
