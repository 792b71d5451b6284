// The enumerations the spec writes out: what `--compare` compares by value even when the target
// serves no OpenAPI document.
import {
  CUSTOMER_STATUSES,
  DOCUMENT_STATUSES,
  KYC_STATUSES,
  LOAN_STATUSES,
  OFFER_STATUSES,
  TRANSACTION_STATUSES,
} from './shapes.js';

/** Every event the spec names, by resource, in the order of its tables. */
export const EVENT_TYPES = {
  customer: ['customer.created', 'customer.under_review', 'customer.kyc_updated', 'customer.active'],
  credit_offer: ['credit_offer.available', 'credit_offer.expired'],
  loan: [
    'loan.created',
    'loan.contract_generated',
    'loan.awaiting_signatures',
    'loan.signed',
    'loan.disbursing',
    'loan.active',
    'loan.payment_received',
    'loan.finished',
    'loan.cancelled',
    'loan.error',
  ],
} as const;

export const ALL_EVENT_TYPES: readonly string[] = Object.values(EVENT_TYPES).flat();

export const SPEC_ENUM_VALUES: ReadonlySet<string> = new Set([
  ...CUSTOMER_STATUSES,
  ...KYC_STATUSES,
  ...DOCUMENT_STATUSES,
  ...OFFER_STATUSES,
  ...LOAN_STATUSES,
  ...TRANSACTION_STATUSES,
  ...ALL_EVENT_TYPES,
  'document',
  'data',
  'installment',
  'active',
  'disabled',
  'revoked',
]);
