import { describe, expect, it } from 'vitest';
import { percentToFraction } from './rate.js';

describe('percentToFraction', () => {
  it('reads numbers through their decimal form, not their binary value', () => {
    expect(percentToFraction(1.99).toString()).toBe('0.0199');
    expect(percentToFraction(0.1).toString()).toBe('0.001');
    expect(percentToFraction('2').toString()).toBe('0.02');
    expect(percentToFraction(0).toString()).toBe('0');
  });

  it('refuses negative, infinite and non-numeric rates with a hint', () => {
    expect(() => percentToFraction(-1)).toThrow(/non-negative/);
    expect(() => percentToFraction(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => percentToFraction('two')).toThrow(/e\.g\. 1\.99/);
  });
});
