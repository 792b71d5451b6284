import { describe, expect, it } from 'vitest';
import { DEFAULT_TIMINGS, parseTimings } from './timings.js';

describe('parseTimings', () => {
  it('keeps the defaults for an empty spec', () => {
    expect(parseTimings('')).toEqual(DEFAULT_TIMINGS);
  });

  it('overrides the named timings only', () => {
    const timings = parseTimings('contract_generation=0s, offer_validity=7d,kyc_review=2m');
    expect(timings).toEqual({
      ...DEFAULT_TIMINGS,
      contractGenerationMs: 0,
      offerValidityMs: 7 * 86_400_000,
      kycReviewMs: 120_000,
    });
  });

  it('names the unknown timing and lists the known ones', () => {
    expect(() => parseTimings('contract=1s')).toThrow(/unknown timing "contract".*contract_generation/);
  });

  it('refuses a value that is not a duration', () => {
    expect(() => parseTimings('kyc_review=soon')).toThrow(/kyc_review: "soon" is not a duration/);
    expect(() => parseTimings('kyc_review')).toThrow(/kyc_review: "" is not a duration/);
  });
});
