import { describe, expect, it } from 'vitest';
import { nextOfferStatus, OFFER_ACTION_EVENTS } from './offer-states.js';

describe('credit offer state machine', () => {
  it('moves an available offer to accepted or expired', () => {
    expect(nextOfferStatus('available', 'accept')).toBe('accepted');
    expect(nextOfferStatus('available', 'expire')).toBe('expired');
  });

  it('keeps accepted and expired offers final', () => {
    for (const status of ['accepted', 'expired'] as const) {
      expect(nextOfferStatus(status, 'accept')).toBeUndefined();
      expect(nextOfferStatus(status, 'expire')).toBeUndefined();
    }
  });

  it('announces expiry only (acceptance is announced by loan.created)', () => {
    expect(OFFER_ACTION_EVENTS).toEqual({ accept: null, expire: 'credit_offer.expired' });
  });
});
