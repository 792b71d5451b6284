import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import type { RandomSource } from '../../src/lib/random.js';

/** A seeded random source (one stream per partner, derived from the seed and the partner id). */
export function seededRandom(seed: number): RandomSource {
  return (partnerId) => {
    let mix = seed;
    for (const char of partnerId) mix = (Math.imul(mix, 31) + char.charCodeAt(0)) | 0;
    const rng = xoroshiro128plus(mix);
    return { next: () => uniformFloat64(rng) };
  };
}
