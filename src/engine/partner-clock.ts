import type { Store } from '../store/store.js';
import { type Clock, clockOf } from './clock.js';

/** A partner's clock, following its stored state. */
export function partnerClock(sources: { store: Store; realNow: () => number }, partnerId: string): Clock {
  return clockOf(() => {
    const partner = sources.store.partners.get(partnerId);
    if (!partner) throw new Error(`unknown partner ${partnerId}`);
    return partner.clock;
  }, sources.realNow);
}
