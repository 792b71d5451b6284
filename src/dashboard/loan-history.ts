import type { LoanStatus } from '../store/records.js';
import type { Store } from '../store/store.js';

/** The states of a loan that goes well, in order. */
export const LOAN_PATH: readonly LoanStatus[] = [
  'processing',
  'contract_generated',
  'awaiting_signatures',
  'signed',
  'disbursing',
  'active',
  'finished',
];

const ENTERED_BY: Record<string, LoanStatus> = {
  'loan.created': 'processing',
  'loan.contract_generated': 'contract_generated',
  'loan.awaiting_signatures': 'awaiting_signatures',
  'loan.signed': 'signed',
  'loan.disbursing': 'disbursing',
  'loan.active': 'active',
  'loan.finished': 'finished',
  'loan.cancelled': 'cancelled',
  'loan.error': 'error',
};

export interface LoanHistory {
  /** Partner-clock time each state was entered (from the event log). */
  entered: Partial<Record<LoanStatus, string>>;
  payments: { timestamp: string; data: Record<string, unknown> }[];
}

/**
 * When the loan entered each state, read from the partner's event log: every state change appends
 * an event, so the log is the loan's history. The API has no per-loan event filter; this reads the
 * partner's `loan.*` list (scoped to the partner) and keeps this loan's.
 */
export function loanHistory(store: Store, partnerId: string, loanId: string): LoanHistory {
  const history: LoanHistory = { entered: {}, payments: [] };
  for (const event of store.eventsByResource.rows(`${partnerId}|loan.*`)) {
    if (event.data.id !== loanId) continue;
    if (event.type === 'loan.payment_received') {
      history.payments.push({ timestamp: event.timestamp, data: event.data });
      continue;
    }
    const state = ENTERED_BY[event.type];
    if (state && history.entered[state] === undefined) history.entered[state] = event.timestamp;
  }
  return history;
}

export type StepState = 'done' | 'current' | 'bad' | 'todo';

/** The timeline to draw: the happy path up to where the loan is, and a failed end when it left it. */
type TimelineStep = { state: LoanStatus; at: string | undefined; mark: StepState };

export function timeline(status: LoanStatus, entered: LoanHistory['entered']): TimelineStep[] {
  const failed = status === 'cancelled' || status === 'error';
  const reached = LOAN_PATH.indexOf(status);
  const steps: TimelineStep[] = [];
  LOAN_PATH.forEach((state, k) => {
    const at = entered[state];
    if (failed) {
      if (at) steps.push({ state, at, mark: 'done' });
      return;
    }
    const mark: StepState =
      k < reached || status === 'finished' ? 'done' : k === reached ? 'current' : 'todo';
    steps.push({ state, at, mark });
  });
  if (failed) steps.push({ state: status, at: entered[status], mark: 'bad' });
  return steps;
}
