import type { DomainContext } from '../../engine/context.js';
import { viewText } from '../../lib/view-text.js';
import type { CreditOfferRecord, CustomerRecord } from '../../store/records.js';
import { ApiError } from '../errors.js';
import { magicBehaviour } from '../magic-profiles.js';
import { CREDIT_JOBS } from './jobs.js';
import { nextOfferStatus, OFFER_ACTION_EVENTS, type OfferAction } from './offer-states.js';
import { type DueDateRule, type OfferTerms, offerTermsFor } from './offer-terms.js';

/** The public CreditOffer: `installments`, or `min_installments` and `max_installments` in its place. */
export type CreditOfferView = {
  id: string;
  customer_id: string;
  status: CreditOfferRecord['status'];
  approved_amount: string;
  min_amount: string;
  interest_rate: number;
  due_date_rule: DueDateRule | null;
  valid_until: string;
  created_at: string;
  updated_at: string;
} & ({ installments: number } | { min_installments: number; max_installments: number });

export function offerView(offer: CreditOfferRecord): CreditOfferView {
  const shape =
    offer.installments !== null
      ? { installments: offer.installments }
      : { min_installments: offer.min_installments ?? 1, max_installments: offer.max_installments ?? 1 };
  return {
    id: offer.id,
    customer_id: offer.customer_id,
    status: offer.status,
    approved_amount: offer.approved_amount,
    min_amount: offer.min_amount,
    interest_rate: offer.interest_rate,
    ...shape,
    // Rows only ever get rules from DUE_DATE_RULES (tiers and the validated control body).
    due_date_rule: offer.due_date_rule as DueDateRule | null,
    valid_until: offer.valid_until,
    created_at: offer.created_at,
    updated_at: offer.updated_at,
  };
}

/** The offer's JSON, serialised once per row version. */
export const offerJson = viewText(offerView);

/** The partner's offer with this id, or a 404. */
export function findOffer(
  ctx: Pick<DomainContext, 'store' | 'partnerId'>,
  id: string,
  param?: string,
): CreditOfferRecord {
  const offer = ctx.store.creditOffers.get(id);
  if (!offer || offer.partner_id !== ctx.partnerId) {
    throw new ApiError('resource_not_found', `No credit offer with id "${id}" exists for this partner.`, {
      ...(param ? { param } : {}),
    });
  }
  return offer;
}

/**
 * The offer the service grants a customer when it becomes active, priced from its profile; none
 * for the `no_offer` magic profile.
 */
export function grantOffer(ctx: DomainContext, customer: CustomerRecord): CreditOfferRecord | null {
  const behaviour = magicBehaviour(customer.cpf);
  if (behaviour === 'no_offer') return null;
  return generateOffer(ctx, customer, offerTermsFor(customer, behaviour));
}

/** Inserts an available offer, announces it and schedules its expiry at `valid_until`. */
export function generateOffer(
  ctx: DomainContext,
  customer: CustomerRecord,
  terms: OfferTerms,
  validForMs: number = ctx.timings.offerValidityMs,
): CreditOfferRecord {
  const now = ctx.clock.iso();
  const validUntilMs = ctx.clock.nowMs() + validForMs;
  const offer = ctx.store.creditOffers.insert({
    id: ctx.ids('co_'),
    seq: ctx.store.nextSeq(),
    partner_id: ctx.partnerId,
    customer_id: customer.id,
    status: 'available',
    approved_amount: terms.approved_amount,
    min_amount: terms.min_amount,
    interest_rate: terms.interest_rate,
    installments: terms.installments,
    min_installments: terms.min_installments,
    max_installments: terms.max_installments,
    due_date_rule: terms.due_date_rule,
    fee_percentage: terms.fee_percentage,
    borrower: terms.borrower,
    tier: terms.tier,
    latest_simulation_id: null,
    valid_until: new Date(validUntilMs).toISOString(),
    created_at: now,
    updated_at: now,
  });
  ctx.emit('credit_offer.available', offerView(offer));
  ctx.schedule(CREDIT_JOBS.offerExpire, { credit_offer_id: offer.id }, validUntilMs);
  return offer;
}

/**
 * Refuses an offer that is not available (422 naming why). An offer whose `valid_until` has passed
 * counts as expired even if its expiry job has not run yet (a running clock fires it a moment later).
 */
export function assertOfferAvailable(ctx: DomainContext, offer: CreditOfferRecord, param?: string): void {
  const options = param ? { param } : {};
  if (offer.status === 'accepted') {
    throw new ApiError(
      'credit_offer_already_accepted',
      `Credit offer ${offer.id} was already accepted: a loan was created from it. An offer can be contracted once.`,
      options,
    );
  }
  if (offer.status === 'expired' || ctx.clock.nowMs() >= Date.parse(offer.valid_until)) {
    throw new ApiError(
      'credit_offer_expired',
      `Credit offer ${offer.id} expired at ${offer.valid_until}. Use an available offer of the customer (GET /v3/customers/${offer.customer_id}/credit-offers?status=available).`,
      options,
    );
  }
}

/** Moves an offer through its state machine and appends the action's event (with the full offer). */
export function transitionOffer(
  ctx: DomainContext,
  offer: CreditOfferRecord,
  action: OfferAction,
): CreditOfferRecord {
  const next = nextOfferStatus(offer.status, action);
  if (next === undefined) {
    assertOfferAvailable(ctx, offer);
    throw new Error(`offer ${offer.id} cannot ${action} from ${offer.status}`);
  }
  const now = ctx.clock.iso();
  // An offer expired early (control call) says when: `valid_until` never lies in the future of
  // an expired offer. The expiry job runs at `valid_until` itself, where this changes nothing.
  const validUntil =
    action === 'expire' && ctx.clock.nowMs() < Date.parse(offer.valid_until) ? now : offer.valid_until;
  const row = ctx.store.creditOffers.replace({
    ...offer,
    status: next,
    valid_until: validUntil,
    updated_at: now,
  });
  const event = OFFER_ACTION_EVENTS[action];
  if (event) ctx.emit(event, offerView(row));
  return row;
}

/** Expires an available offer and schedules the customer's next offer. */
export function expireOffer(ctx: DomainContext, offer: CreditOfferRecord): CreditOfferRecord {
  const row = transitionOffer(ctx, offer, 'expire');
  scheduleNextOffer(ctx, row.customer_id);
  return row;
}

/** A fresh offer for the customer one day from now (after an expiry, a cancelled or failed loan). */
export function scheduleNextOffer(ctx: DomainContext, customerId: string): void {
  ctx.schedule(
    CREDIT_JOBS.offerRegenerate,
    { customer_id: customerId },
    ctx.clock.nowMs() + ctx.timings.offerRenewalMs,
  );
}

/** Job: the offer's `valid_until` arrived. Nothing to do if it was accepted (or expired) meanwhile. */
export function runOfferExpiry(ctx: DomainContext, offerId: string): void {
  const offer = ctx.store.creditOffers.get(offerId);
  if (!offer || nextOfferStatus(offer.status, 'expire') === undefined) return;
  expireOffer(ctx, offer);
}

/** Job: a fresh offer for a customer that is still active. */
export function runOfferRegeneration(ctx: DomainContext, customerId: string): void {
  const customer = ctx.store.customers.get(customerId);
  if (!customer || customer.partner_id !== ctx.partnerId || customer.status !== 'active') return;
  grantOffer(ctx, customer);
}
