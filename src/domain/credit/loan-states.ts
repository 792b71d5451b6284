import type { EventType } from '../../engine/event-types.js';
import type { LoanStatus } from '../../store/records.js';

/** What can happen to a loan; automatic jobs and control endpoints name the same actions. */
export type LoanAction =
  | 'generate_contract'
  | 'request_signature'
  | 'sign'
  | 'decline'
  | 'start_disbursement'
  | 'confirm_disbursement'
  | 'record_payment'
  | 'finish'
  | 'cancel'
  | 'fail';

// Cancellation is possible until the money has left (any state before active); an unrecoverable
// error can happen while the service works on its own (contract generation, disbursement), not
// while it waits for the customer's signature.
const CANCEL = { cancel: 'cancelled' } as const;
const FAIL = { fail: 'error' } as const;

/** The loan state machine. Every change of a loan's status goes through `nextLoanStatus`. */
export const LOAN_TRANSITIONS: Record<LoanStatus, Partial<Record<LoanAction, LoanStatus>>> = {
  processing: { generate_contract: 'contract_generated', ...CANCEL, ...FAIL },
  contract_generated: { request_signature: 'awaiting_signatures', ...CANCEL, ...FAIL },
  awaiting_signatures: { sign: 'signed', decline: 'cancelled', ...CANCEL },
  signed: { start_disbursement: 'disbursing', ...CANCEL, ...FAIL },
  disbursing: { confirm_disbursement: 'active', ...CANCEL, ...FAIL },
  active: { record_payment: 'active', finish: 'finished' },
  finished: {},
  cancelled: {},
  error: {},
};

/** The event each action appends. */
export const LOAN_ACTION_EVENTS: Record<LoanAction, EventType> = {
  generate_contract: 'loan.contract_generated',
  request_signature: 'loan.awaiting_signatures',
  sign: 'loan.signed',
  decline: 'loan.cancelled',
  start_disbursement: 'loan.disbursing',
  confirm_disbursement: 'loan.active',
  record_payment: 'loan.payment_received',
  finish: 'loan.finished',
  cancel: 'loan.cancelled',
  fail: 'loan.error',
};

/** Where each failure stage of `POST /sandbox/loans/{id}/fail` may happen. */
export const FAIL_STAGES = {
  contract: ['processing', 'contract_generated'],
  disbursement: ['signed', 'disbursing'],
} as const satisfies Record<string, readonly LoanStatus[]>;
export type FailStage = keyof typeof FAIL_STAGES;

/** The state after `action`, or undefined when the action is not allowed from `status`. */
export function nextLoanStatus(status: LoanStatus, action: LoanAction): LoanStatus | undefined {
  return LOAN_TRANSITIONS[status][action];
}

/** The actions allowed from a state (for error messages). */
export function allowedLoanActions(status: LoanStatus): LoanAction[] {
  return Object.keys(LOAN_TRANSITIONS[status]) as LoanAction[];
}
