import type { DomainContext } from '../../engine/context.js';
import { FinanceDecimal, isMoneyString, toDecimal } from '../../finance/index.js';
import type { CreditOfferRecord } from '../../store/records.js';
import { ApiError, type FieldError } from '../errors.js';
import { magicBehaviour } from '../magic-profiles.js';
import { findCustomer } from './customers.js';
import { type DueDateRule, type OfferTerms, offerTermsFor } from './offer-terms.js';
import { generateOffer } from './offers.js';
import { DAY_MS } from './timings.js';

/** Terms a control call may set; the rest comes from the customer's tier. */
export interface OfferOverrides {
  approved_amount?: string | undefined;
  min_amount?: string | undefined;
  interest_rate?: number | undefined;
  installments?: number | undefined;
  min_installments?: number | undefined;
  max_installments?: number | undefined;
  due_date_rule?: DueDateRule | null | undefined;
  fee_percentage?: number | undefined;
  valid_for_days?: number | undefined;
}

/**
 * Control API: a fresh offer for an active customer now, on the customer's tier with any of its
 * terms replaced. Works for every profile (also `no_offer`: the call is explicit).
 */
export function generateCustomOffer(
  ctx: DomainContext,
  customerId: string,
  overrides: OfferOverrides,
): CreditOfferRecord {
  const customer = findCustomer(ctx, customerId);
  if (customer.status !== 'active') {
    throw new ApiError(
      'customer_not_active',
      `Customer ${customer.id} is ${customer.status}; offers are granted to active customers only. Complete KYC first (POST /v3/sandbox/customers/${customer.id}/kyc/approve once every item is submitted).`,
    );
  }
  const base = offerTermsFor(customer, magicBehaviour(customer.cpf));
  const range = overrides.min_installments !== undefined;
  const fixed = overrides.installments !== undefined;
  const terms: OfferTerms = {
    ...base,
    tier: 'custom',
    approved_amount: overrides.approved_amount ?? base.approved_amount,
    min_amount: overrides.min_amount ?? base.min_amount,
    interest_rate: overrides.interest_rate ?? base.interest_rate,
    installments: fixed ? (overrides.installments ?? null) : range ? null : base.installments,
    min_installments: range ? (overrides.min_installments ?? null) : fixed ? null : base.min_installments,
    max_installments: range ? (overrides.max_installments ?? null) : fixed ? null : base.max_installments,
    due_date_rule: overrides.due_date_rule === undefined ? base.due_date_rule : overrides.due_date_rule,
    // The JSON number read through its shortest decimal form (as interest_rate is), never Number#toFixed:
    // a binary float rounds 1.005 down to "1.00" and 0.004 to "0.00" (a fee an individual must be refused).
    fee_percentage:
      overrides.fee_percentage === undefined
        ? base.fee_percentage
        : new FinanceDecimal(String(overrides.fee_percentage)).toFixed(),
  };
  assertCoherent(terms);
  return generateOffer(
    ctx,
    customer,
    terms,
    overrides.valid_for_days === undefined ? ctx.timings.offerValidityMs : overrides.valid_for_days * DAY_MS,
  );
}

function assertCoherent(terms: OfferTerms): void {
  const errors: FieldError[] = [];
  if (!isMoneyString(terms.min_amount) || toDecimal(terms.min_amount).gt(terms.approved_amount)) {
    errors.push({
      param: 'min_amount',
      detail: `min_amount ${terms.min_amount} must not exceed approved_amount ${terms.approved_amount}.`,
    });
  }
  if (
    terms.min_installments !== null &&
    terms.max_installments !== null &&
    terms.min_installments > terms.max_installments
  ) {
    errors.push({
      param: 'min_installments',
      detail: `min_installments ${terms.min_installments} must not exceed max_installments ${terms.max_installments}.`,
    });
  }
  if (terms.borrower === 'individual' && Number(terms.fee_percentage) !== 0) {
    errors.push({
      param: 'fee_percentage',
      detail:
        'Individuals may not be charged fees (origination fees are forbidden for them); send 0 or omit it.',
    });
  }
  const first = errors[0];
  if (first) {
    throw new ApiError('invalid_offer_terms', errors.map((e) => e.detail).join(' '), {
      param: first.param,
      errors: errors.map((e) => ({ ...e, code: 'invalid_offer_terms' })),
    });
  }
}
