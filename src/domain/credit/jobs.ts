/** The timed job kinds of the credit module (payloads carry the row id they act on). */
export const CREDIT_JOBS = {
  /** {credit_offer_id}: valid_until passed. */
  offerExpire: 'credit.offer_expire',
  /** {customer_id}: a fresh offer after one ended. */
  offerRegenerate: 'credit.offer_regenerate',
  /** {loan_id}: processing -> contract_generated. */
  generateContract: 'loan.generate_contract',
  /** {loan_id}: contract_generated -> awaiting_signatures. */
  requestSignature: 'loan.request_signature',
  /** {loan_id}: signed -> disbursing. */
  startDisbursement: 'loan.start_disbursement',
  /** {loan_id}: disbursing -> active (or error for the disbursement_failure profile). */
  confirmDisbursement: 'loan.confirm_disbursement',
  /** {loan_id}: the first due date arrived before the signature: the loan is cancelled. */
  signatureExpire: 'loan.signature_expire',
  /** {loan_id, decision: sign|decline}: a magic profile answers the signature request. */
  customerSignature: 'loan.customer_signature',
  /** {transaction_id}: the day after the due date, an open installment becomes overdue. */
  installmentOverdue: 'loan.installment_overdue',
  /** {transaction_id}: a magic payer pays an installment. */
  magicPayment: 'loan.magic_payment',
} as const;
