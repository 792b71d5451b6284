/** The shipped scenarios that run on their own (the webhook one with a receiver URL). */
export const RUNNABLE_SCENARIOS = [
  'happy-path',
  'kyc-resubmission',
  'data-correction',
  'offer-expiry-and-renewal',
  'signature-declined',
  'disbursement-failure',
  'overdue-installment',
  'partial-payment',
  'early-payoff',
  'webhook-receiver-down',
  'webhook-chaos',
  'installment-due-on-holiday',
  'active-customer',
  'loan-awaiting-signature',
  'kyc-rejected',
] as const;

/** Every shipped scenario (make-installment-overdue needs a loan_id). */
export const ALL_SCENARIOS = [...RUNNABLE_SCENARIOS, 'make-installment-overdue'].sort();

/** A scenario file whose expectation is wrong on purpose (the customer is active by then). */
export const FAILING_SCENARIO = `name: expect-wrong-status
description: A scenario whose expectation is wrong on purpose.
steps:
  - include: active-customer
  - name: the customer is still pending
    expect: customer.status == pending_kyc
  - name: never runs
    advance: 1d
`;
