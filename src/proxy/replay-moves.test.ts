import { describe, expect, it } from 'vitest';
import { IdMap } from './replay-ids.js';
import { clockStep, controlMove, earlierStatuses, isBehind, lagsOf } from './replay-moves.js';
import { movesBetween } from './scenario-plan.js';

const loan = (id: string, status: string, extra: Record<string, unknown> = {}) => ({
  id,
  status,
  installments_value: '100.00',
  ...extra,
});

describe('moves made outside the API', () => {
  it('finds objects behind the recording, forward only, in lists and in KYC items', () => {
    expect(isBehind('loan', 'awaiting_signatures', 'active')).toBe(true);
    expect(isBehind('loan', 'active', 'signed')).toBe(false);
    expect(isBehind('loan', 'active', 'activated')).toBe(false);
    const recorded = { data: [loan('ln_aaaaaaaa', 'active'), loan('ln_bbbbbbbb', 'processing')] };
    const actual = { data: [loan('ln_11111111', 'signed'), loan('ln_22222222', 'signed')] };
    expect(lagsOf(recorded, actual).map((lag) => lag.actual.id)).toEqual(['ln_11111111']);
    const customer = (status: string, biometrics: string) => ({
      id: 'cust_12345678',
      status,
      kyc: [
        { type: 'selfie', status: 'submitted' },
        { type: 'biometrics', status: biometrics },
      ],
    });
    expect(lagsOf(customer('pending_kyc', 'approved'), customer('pending_kyc', 'pending'))).toHaveLength(1);
    expect(earlierStatuses('customer', 'active')).toEqual(['pending_kyc', 'under_review']);
  });

  it('picks the control move for each lag, or none when only time moves it', () => {
    const move = (kind: string, actual: Record<string, unknown>, recorded: Record<string, unknown>) =>
      controlMove({ kind, actual, recorded })?.path;
    expect(move('loan', loan('ln_1', 'awaiting_signatures'), loan('ln_x', 'active'))).toBe(
      '/sandbox/loans/ln_1/sign',
    );
    expect(move('loan', loan('ln_1', 'awaiting_signatures'), loan('ln_x', 'cancelled'))).toBe(
      '/sandbox/loans/ln_1/decline',
    );
    expect(move('loan', loan('ln_1', 'processing'), loan('ln_x', 'cancelled'))).toBe(
      '/sandbox/loans/ln_1/cancel',
    );
    expect(
      controlMove({ kind: 'loan', actual: loan('ln_1', 'disbursing'), recorded: loan('ln_x', 'error') })
        ?.body,
    ).toEqual({
      stage: 'disbursement',
    });
    expect(move('loan', loan('ln_1', 'active'), loan('ln_x', 'finished'))).toBe(
      '/sandbox/loans/ln_1/payments',
    );
    expect(move('loan', loan('ln_1', 'processing'), loan('ln_x', 'awaiting_signatures'))).toBeUndefined();
    expect(move('offer', { id: 'co_1', status: 'available' }, { status: 'expired' })).toBe(
      '/sandbox/credit-offers/co_1/expire',
    );
    const payment = controlMove({
      kind: 'transaction',
      actual: { id: 'tx_1', loan_id: 'ln_1', installment_number: 2, status: 'pending', amount_paid: '0.00' },
      recorded: { status: 'partially_paid', amount_paid: '100.05' },
    });
    expect(payment?.body).toEqual({ amount: '100.05', installment_number: 2 });
    expect(clockStep([{ kind: 'transaction', actual: {}, recorded: { status: 'overdue' } }])).toBe('1d');
    expect(clockStep([{ kind: 'loan', actual: {}, recorded: { status: 'active' } }])).toBe('1s');
  });

  it('plans a scenario from the last status it saw: waits where time moves, control calls where none does', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a scenario placeholder, as the generator writes it
    const steps = movesBetween('loan', loan('${loan.id}', 'processing'), loan('ln_x', 'finished'));
    expect(steps.map((step) => step.name)).toEqual([
      'the contract is sent for signature',
      'the customer signs loan',
      'the pix is confirmed',
      'every installment is paid',
    ]);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a scenario placeholder, as the generator writes it
    expect(movesBetween('loan', loan('${loan.id}', 'active'), loan('ln_x', 'signed'))).toEqual([]);
  });
});

describe('the id map', () => {
  it('learns pairs from two answers and Location, keeps the first, and replaces ids in text and values', () => {
    const ids = new IdMap();
    ids.learn(
      { id: 'cust_aaaaaaaa', kyc: [{ document_id: 'doc_aaaaaaaa' }], status: 'pending_kyc' },
      { id: 'cust_bbbbbbbb', kyc: [{ document_id: 'doc_bbbbbbbb' }], status: 'pending_kyc' },
    );
    ids.learnLocation('/v3/loans/ln_aaaaaaaa', '/v3/loans/ln_bbbbbbbb');
    ids.add('cust_aaaaaaaa', 'cust_cccccccc');
    ids.add('co_aaaaaaaa', 'ln_bbbbbbbb');
    expect(ids.size).toBe(3);
    expect(ids.substitute('/v3/customers/cust_aaaaaaaa/documents/doc_aaaaaaaa?x=ln_aaaaaaaa')).toBe(
      '/v3/customers/cust_bbbbbbbb/documents/doc_bbbbbbbb?x=ln_bbbbbbbb',
    );
    expect(ids.substituteValue({ credit_offer_id: 'co_aaaaaaaa', loans: ['ln_aaaaaaaa'] })).toEqual({
      credit_offer_id: 'co_aaaaaaaa',
      loans: ['ln_bbbbbbbb'],
    });
  });
});
