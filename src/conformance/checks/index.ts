// Every check, in the order the runner takes them (and the report lists them): by area, as the
// spec's sections come. docs/conformance.md lists them (a test keeps the two in step).
import type { Check } from '../types.js';
import { AUTH_CHECKS } from './auth.js';
import { CREDENTIAL_CHECKS } from './credentials.js';
import { CREDIT_CHECKS } from './credit.js';
import { CUSTOMER_CHECKS } from './customers.js';
import { ERROR_CHECKS } from './errors.js';
import { EVENT_CHECKS } from './events.js';
import { IDEMPOTENCY_CHECKS } from './idempotency.js';
import { KYC_CHECKS } from './kyc.js';
import { KYC_REVIEW_CHECKS } from './kyc-review.js';
import { LIST_CHECKS } from './lists.js';
import { SORT_CHECKS } from './lists-sort.js';
import { LOAN_CHECKS } from './loans.js';
import { SIGNATURE_CHECKS } from './signatures.js';
import { SIMULATION_CHECKS } from './simulations.js';
import { TRANSACTION_CHECKS } from './transactions.js';
import { WEBHOOK_CHECKS } from './webhooks.js';

export const ALL_CHECKS: readonly Check[] = [
  ...AUTH_CHECKS,
  ...CREDENTIAL_CHECKS,
  ...CUSTOMER_CHECKS,
  ...KYC_CHECKS,
  ...KYC_REVIEW_CHECKS,
  ...LIST_CHECKS,
  ...SORT_CHECKS,
  ...IDEMPOTENCY_CHECKS,
  ...CREDIT_CHECKS,
  ...SIMULATION_CHECKS,
  ...LOAN_CHECKS,
  ...TRANSACTION_CHECKS,
  ...WEBHOOK_CHECKS,
  ...SIGNATURE_CHECKS,
  ...EVENT_CHECKS,
  ...ERROR_CHECKS,
];
