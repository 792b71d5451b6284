import type { EventType } from '../../engine/event-types.js';
import type { CreditOfferStatus } from '../../store/records.js';

/** What can happen to an offer. */
export type OfferAction = 'accept' | 'expire';

/**
 * The credit offer state machine: `available` is the only state that moves. `accept` happens when a
 * loan is created from the offer (no event: the loan's `loan.created` announces it); `expire` when
 * `valid_until` passes or the control endpoint says so.
 */
export const OFFER_TRANSITIONS: Record<CreditOfferStatus, Partial<Record<OfferAction, CreditOfferStatus>>> = {
  available: { accept: 'accepted', expire: 'expired' },
  accepted: {},
  expired: {},
};

/** The event each action appends, if any. */
export const OFFER_ACTION_EVENTS: Record<OfferAction, EventType | null> = {
  accept: null,
  expire: 'credit_offer.expired',
};

/** The state after `action`, or undefined when the action is not allowed from `status`. */
export function nextOfferStatus(
  status: CreditOfferStatus,
  action: OfferAction,
): CreditOfferStatus | undefined {
  return OFFER_TRANSITIONS[status][action];
}
