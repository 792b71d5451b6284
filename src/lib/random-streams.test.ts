import { describe, expect, it } from 'vitest';
import { recordCounters, seededKey, seededStreams, unseededStreams } from './random-streams.js';

/** Seeded streams over their own (persistent) counters. */
function seeded(seed: string, counters: Record<string, number> = {}) {
  return seededStreams(
    seed,
    recordCounters(() => counters),
  );
}

describe('seeded random streams', () => {
  it('gives the same values for the same seed, whatever the other streams drew', () => {
    const one = seeded('s');
    const two = seeded('s');
    two.partner('ptn_b').ids('x_');
    two.server.randomBytes(40);
    expect(two.partner('ptn_a').ids('cust_')).toBe(one.partner('ptn_a').ids('cust_'));
    expect(two.partner('ptn_a').ids('cust_')).toBe(one.partner('ptn_a').ids('cust_'));
    expect(one.partner('ptn_a').ids('cust_')).toMatch(/^cust_[0-9a-f]{32}$/);
  });

  it('continues from the stored counters after a restart instead of repeating values', () => {
    const counters: Record<string, number> = {};
    const first = seeded('s', counters).partner('p').ids('a_');
    expect(counters['partner:p']).toBe(1);
    expect(seeded('s', counters).partner('p').ids('a_')).not.toBe(first);
  });

  it('differs between seeds, partners and draws, and gives exactly the bytes asked for', () => {
    const a = seeded('a');
    const b = seeded('b');
    expect(a.partner('p').ids('x_')).not.toBe(b.partner('p').ids('x_'));
    expect(a.partner('p').ids('x_')).not.toBe(a.partner('q').ids('x_'));
    expect(a.partner('p').ids('x_')).not.toBe(a.partner('p').ids('x_'));
    expect(a.server.randomBytes(70)).toHaveLength(70);
    expect(seededKey('a', 'k').equals(seededKey('a', 'k'))).toBe(true);
    expect(seededKey('a', 'k').equals(seededKey('b', 'k'))).toBe(false);
  });

  it('draws uniform numbers in [0, 1), the same ones for the same seed', () => {
    const draw = () => {
      const stream = seeded('s').partner('p');
      return Array.from({ length: 1000 }, () => stream.next());
    };
    const values = draw();
    expect(draw()).toEqual(values);
    expect(values.every((v) => v >= 0 && v < 1)).toBe(true);
    const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
    expect(mean).toBeGreaterThan(0.45);
    expect(mean).toBeLessThan(0.55);
  });

  it('without a seed, every partner shares the given source', () => {
    const source = { ids: (p: string) => `${p}1`, randomBytes: (n: number) => Buffer.alloc(n, 0xff) };
    const streams = unseededStreams(source);
    expect(streams.partner('p')).toBe(streams.partner('q'));
    expect(streams.partner('p').ids('x_')).toBe('x_1');
    expect(streams.seeded).toBe(false);
    expect(streams.partner('p').next()).toBe(1 - 2 ** -53);
  });
});
