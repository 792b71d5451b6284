/** Error codes of credit offers, simulations, loans and their payments. */
import type { ErrorCatalogEntry } from './error-catalog-entry.js';

export const CREDIT_ERRORS = {
  invalid_loan_transition: {
    status: 409,
    title: 'Loan cannot make this move',
    help: 'The loan is not in a status that allows this action: signing and declining need `awaiting_signatures`; cancelling needs a status before `active`; failing the contract stage needs `processing` or `contract_generated`, the disbursement stage `signed` or `disbursing`. Read the loan for its current `status`.',
  },
  credit_offer_expired: {
    status: 422,
    title: 'Credit offer expired',
    help: "The offer passed its `valid_until` and can no longer be simulated or contracted. List the customer's offers with `status=available`; a fresh offer is generated one day after an offer expires (or at once with `POST /v3/sandbox/customers/{id}/credit-offers`).",
  },
  credit_offer_already_accepted: {
    status: 422,
    title: 'Credit offer already accepted',
    help: 'A loan was already created from this offer; an offer can be contracted once. Follow that loan with `GET /v3/loans?customer_id=…`.',
  },
  amount_out_of_range: {
    status: 422,
    title: 'Amount outside the offer',
    help: "`requested_amount` must lie between the offer's `min_amount` and `approved_amount`, both included.",
  },
  installment_count_out_of_range: {
    status: 422,
    title: 'Installment count outside the offer',
    help: "`installment_count` must equal the offer's `installments`, or lie between its `min_installments` and `max_installments` when the offer has a range.",
  },
  simulation_superseded: {
    status: 422,
    title: 'Simulation is not the latest',
    help: 'Only the latest simulation of an offer can be contracted. Create the loan with the `id` of the most recent `POST /v3/credit-offers/{id}/simulations` answer (or simulate again).',
  },
  simulation_offer_mismatch: {
    status: 422,
    title: 'Simulation belongs to another offer',
    help: '`simulation_id` must be a simulation of the offer named by `credit_offer_id`.',
  },
  loan_terms_mismatch: {
    status: 422,
    title: 'Loan terms differ from the simulation',
    help: "`installments`, `installments_value` and `first_due_date` are optional; when sent they must equal the simulation's `number_of_installments`, `installments_value` and `first_due_date`. `errors[]` lists each difference.",
  },
  loan_not_active: {
    status: 422,
    title: 'Loan does not accept payments',
    help: 'Payments are recorded only for `active` loans. A `finished` loan is fully paid; a loan before `active` has not been disbursed yet.',
  },
  installment_not_found: {
    status: 422,
    title: 'No such installment',
    help: "`installment_number` must be between 1 and the loan's `installments`.",
  },
  installment_already_paid: {
    status: 422,
    title: 'Installment already paid',
    help: 'The installment is `paid`. Omit `installment_number` to pay the oldest open installment, or name an open one.',
  },
  payment_exceeds_outstanding: {
    status: 422,
    title: 'Payment exceeds what is owed',
    help: 'A payment settles one installment: at most its `amount_outstanding` (the unpaid part of `amount_due` plus unpaid late charges). Split larger amounts into one payment per installment.',
  },
  customer_not_active: {
    status: 422,
    title: 'Customer is not active',
    help: 'Credit offers exist only for `active` customers (KYC approved). Finish KYC first, e.g. with `POST /v3/sandbox/customers/{id}/kyc/approve`.',
  },
  invalid_offer_terms: {
    status: 422,
    title: 'Invalid offer terms',
    help: 'Terms for a generated offer must be coherent: `min_amount` ≤ `approved_amount`, `min_installments` ≤ `max_installments`, and no fee for individuals (origination fees are forbidden for them). `errors[]` lists each problem.',
  },
} as const satisfies Record<string, ErrorCatalogEntry>;
