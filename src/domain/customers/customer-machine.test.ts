import { describe, expect, it } from 'vitest';
import type { KycItemRecord, KycItemStatus } from '../../store/records.js';
import { allApproved, impliedCustomerEvent, nextCustomerStatus } from './customer-machine.js';

const items = (...statuses: KycItemStatus[]): KycItemRecord[] =>
  statuses.map((status, k) => ({
    kind: 'document',
    type: `t${k}`,
    description: '',
    status,
    message: null,
    uploaded_at: null,
    document_id: null,
    submissions: 0,
  }));

describe('customer state machine', () => {
  it('has the spec moves plus the back-move to pending_kyc', () => {
    expect(nextCustomerStatus('pending_kyc', 'kyc_submitted')).toBe('under_review');
    expect(nextCustomerStatus('under_review', 'kyc_approved')).toBe('active');
    expect(nextCustomerStatus('under_review', 'kyc_reopened')).toBe('pending_kyc');
  });

  it('never leaves active and never skips the review', () => {
    for (const event of ['kyc_submitted', 'kyc_reopened', 'kyc_approved'] as const) {
      expect(nextCustomerStatus('active', event)).toBeUndefined();
    }
    expect(nextCustomerStatus('pending_kyc', 'kyc_approved')).toBeUndefined();
    expect(nextCustomerStatus('pending_kyc', 'kyc_reopened')).toBeUndefined();
    expect(nextCustomerStatus('under_review', 'kyc_submitted')).toBeUndefined();
  });

  it('goes under review when nothing waits on the customer (submitted or approved)', () => {
    expect(impliedCustomerEvent('pending_kyc', items('submitted', 'approved'))).toBe('kyc_submitted');
    expect(impliedCustomerEvent('pending_kyc', items('submitted', 'pending'))).toBeUndefined();
    expect(impliedCustomerEvent('pending_kyc', items('approved', 'pending_correction'))).toBeUndefined();
  });

  it('reopens a review when an item waits on the customer again', () => {
    expect(impliedCustomerEvent('under_review', items('approved', 'pending_resubmission'))).toBe(
      'kyc_reopened',
    );
    expect(impliedCustomerEvent('under_review', items('submitted', 'pending_correction'))).toBe(
      'kyc_reopened',
    );
    expect(impliedCustomerEvent('under_review', items('submitted', 'approved'))).toBeUndefined();
  });

  it('leaves approval to the review and never moves an active customer by itself', () => {
    expect(impliedCustomerEvent('under_review', items('approved', 'approved'))).toBeUndefined();
    expect(impliedCustomerEvent('active', items('pending'))).toBeUndefined();
    expect(allApproved(items('approved', 'approved'))).toBe(true);
    expect(allApproved(items('approved', 'submitted'))).toBe(false);
  });
});
