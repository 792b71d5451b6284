import { describe, expect, it } from 'vitest';
import type { KycItemStatus } from '../../store/records.js';
import {
  eventAppliesTo,
  KYC_ITEM_TRANSITIONS,
  type KycItemEvent,
  nextKycItemStatus,
  OPEN_ITEM_STATUSES,
} from './kyc-item-machine.js';

const STATUSES: KycItemStatus[] = [
  'pending',
  'submitted',
  'approved',
  'pending_resubmission',
  'pending_correction',
];
const EVENTS: KycItemEvent[] = [
  'submit',
  'capture_passed',
  'capture_failed',
  'approve',
  'reject',
  'request_correction',
];

describe('KYC item state machine', () => {
  it.each([
    ['pending', 'submit', 'submitted'],
    ['pending', 'capture_passed', 'approved'],
    ['pending', 'capture_failed', 'pending_resubmission'],
    ['submitted', 'approve', 'approved'],
    ['submitted', 'reject', 'pending_resubmission'],
    ['submitted', 'request_correction', 'pending_correction'],
    ['approved', 'reject', 'pending_resubmission'],
    ['approved', 'request_correction', 'pending_correction'],
    ['pending_resubmission', 'submit', 'submitted'],
    ['pending_resubmission', 'capture_passed', 'approved'],
    ['pending_resubmission', 'capture_failed', 'pending_resubmission'],
    ['pending_correction', 'submit', 'submitted'],
  ] as const)('%s --%s--> %s', (from, event, to) => {
    expect(nextKycItemStatus(from, event)).toBe(to);
  });

  it('has no other moves (nothing is approved or rejected before it is submitted)', () => {
    let moves = 0;
    for (const status of STATUSES) {
      for (const event of EVENTS) if (nextKycItemStatus(status, event) !== undefined) moves++;
    }
    expect(moves).toBe(12);
    expect(nextKycItemStatus('pending', 'approve')).toBeUndefined();
    expect(nextKycItemStatus('pending', 'reject')).toBeUndefined();
    expect(nextKycItemStatus('approved', 'submit')).toBeUndefined();
    expect(nextKycItemStatus('submitted', 'submit')).toBeUndefined();
    expect(nextKycItemStatus('pending_correction', 'approve')).toBeUndefined();
  });

  it('only ever moves to a known status', () => {
    for (const moves of Object.values(KYC_ITEM_TRANSITIONS)) {
      for (const to of Object.values(moves)) expect(STATUSES).toContain(to);
    }
  });

  it('fits events to the kind of item: files are rejected, data corrected, captures decided on the spot', () => {
    expect(eventAppliesTo('upload', 'submit')).toBe(true);
    expect(eventAppliesTo('upload', 'reject')).toBe(true);
    expect(eventAppliesTo('upload', 'request_correction')).toBe(false);
    expect(eventAppliesTo('upload', 'capture_passed')).toBe(false);
    expect(eventAppliesTo('capture', 'capture_failed')).toBe(true);
    expect(eventAppliesTo('capture', 'submit')).toBe(false);
    expect(eventAppliesTo('data', 'request_correction')).toBe(true);
    expect(eventAppliesTo('data', 'reject')).toBe(false);
  });

  it('counts pending, pending_resubmission and pending_correction as waiting on the customer', () => {
    expect([...OPEN_ITEM_STATUSES].sort()).toEqual(['pending', 'pending_correction', 'pending_resubmission']);
  });
});
