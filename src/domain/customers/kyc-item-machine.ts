import type { KycItemStatus } from '../../store/records.js';
import type { KycItemMode } from './requirements.js';

/**
 * What can happen to a KYC item: `submit` (upload, corrected field), `capture_passed` /
 * `capture_failed` (hosted biometrics), `approve` / `reject` (review), `request_correction`
 * (review asks a data field to be fixed).
 */
export type KycItemEvent =
  | 'submit'
  | 'capture_passed'
  | 'capture_failed'
  | 'approve'
  | 'reject'
  | 'request_correction';

/** The KYC item state machine. A capture is decided on the spot, so it skips `submitted`. */
export const KYC_ITEM_TRANSITIONS: Readonly<
  Record<KycItemStatus, Readonly<Partial<Record<KycItemEvent, KycItemStatus>>>>
> = {
  pending: { submit: 'submitted', capture_passed: 'approved', capture_failed: 'pending_resubmission' },
  submitted: {
    approve: 'approved',
    reject: 'pending_resubmission',
    request_correction: 'pending_correction',
  },
  approved: { reject: 'pending_resubmission', request_correction: 'pending_correction' },
  pending_resubmission: {
    submit: 'submitted',
    capture_passed: 'approved',
    capture_failed: 'pending_resubmission',
  },
  pending_correction: { submit: 'submitted' },
};

/** Which events apply to which kind of item: files are rejected, data fields corrected. */
export const KYC_EVENTS_BY_MODE: Readonly<Record<KycItemMode, readonly KycItemEvent[]>> = {
  upload: ['submit', 'approve', 'reject'],
  capture: ['capture_passed', 'capture_failed', 'reject'],
  data: ['submit', 'approve', 'request_correction'],
};

/** Statuses that wait on the customer: while any item is in one, the customer is `pending_kyc`. */
export const OPEN_ITEM_STATUSES: ReadonlySet<KycItemStatus> = new Set([
  'pending',
  'pending_resubmission',
  'pending_correction',
]);

/** The status an item moves to on `event`, or undefined when the table has no such move. */
export function nextKycItemStatus(status: KycItemStatus, event: KycItemEvent): KycItemStatus | undefined {
  return KYC_ITEM_TRANSITIONS[status][event];
}

export function eventAppliesTo(mode: KycItemMode, event: KycItemEvent): boolean {
  return KYC_EVENTS_BY_MODE[mode].includes(event);
}
