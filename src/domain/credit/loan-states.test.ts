import { describe, expect, it } from 'vitest';
import type { LoanStatus } from '../../store/records.js';
import {
  allowedLoanActions,
  FAIL_STAGES,
  LOAN_ACTION_EVENTS,
  LOAN_TRANSITIONS,
  type LoanAction,
  nextLoanStatus,
} from './loan-states.js';

const STATES = Object.keys(LOAN_TRANSITIONS) as LoanStatus[];
const ACTIONS = Object.keys(LOAN_ACTION_EVENTS) as LoanAction[];

describe('loan state machine', () => {
  it('walks the happy path from processing to finished', () => {
    const path: [LoanAction, LoanStatus][] = [
      ['generate_contract', 'contract_generated'],
      ['request_signature', 'awaiting_signatures'],
      ['sign', 'signed'],
      ['start_disbursement', 'disbursing'],
      ['confirm_disbursement', 'active'],
      ['record_payment', 'active'],
      ['finish', 'finished'],
    ];
    let status: LoanStatus = 'processing';
    for (const [action, expected] of path) {
      const next = nextLoanStatus(status, action);
      expect(next, `${status} --${action}->`).toBe(expected);
      status = next as LoanStatus;
    }
  });

  it('cancels from every state before active and from no other', () => {
    const cancellable = STATES.filter((s) => nextLoanStatus(s, 'cancel') === 'cancelled');
    expect(cancellable.sort()).toEqual(
      ['awaiting_signatures', 'contract_generated', 'disbursing', 'processing', 'signed'].sort(),
    );
  });

  it('errors from processing, contract_generated, signed and disbursing only', () => {
    const failing = STATES.filter((s) => nextLoanStatus(s, 'fail') === 'error');
    expect(failing.sort()).toEqual(['contract_generated', 'disbursing', 'processing', 'signed'].sort());
    const staged = [...FAIL_STAGES.contract, ...FAIL_STAGES.disbursement];
    expect([...staged].sort()).toEqual(failing.sort());
  });

  it('only a signature request can be declined, and declining cancels', () => {
    for (const state of STATES) {
      expect(nextLoanStatus(state, 'decline')).toBe(
        state === 'awaiting_signatures' ? 'cancelled' : undefined,
      );
    }
  });

  it('has final states with no way out', () => {
    for (const final of ['finished', 'cancelled', 'error'] as const) {
      expect(allowedLoanActions(final)).toEqual([]);
      for (const action of ACTIONS) expect(nextLoanStatus(final, action)).toBeUndefined();
    }
  });

  it('accepts payments only while active', () => {
    for (const state of STATES) {
      expect(nextLoanStatus(state, 'record_payment') !== undefined).toBe(state === 'active');
    }
  });

  it('maps every action to a loan event', () => {
    for (const action of ACTIONS) expect(LOAN_ACTION_EVENTS[action]).toMatch(/^loan\./);
    expect(LOAN_ACTION_EVENTS.decline).toBe('loan.cancelled');
    expect(LOAN_ACTION_EVENTS.fail).toBe('loan.error');
  });
});
