import type { CustomerStatus, KycItemRecord } from '../../store/records.js';
import { OPEN_ITEM_STATUSES } from './kyc-item-machine.js';

/**
 * `kyc_submitted`: every required item is submitted; `kyc_reopened`: an item was rejected or a
 * correction requested during review; `kyc_approved`: the review approved every item.
 */
export type CustomerEvent = 'kyc_submitted' | 'kyc_reopened' | 'kyc_approved';

/** The customer state machine (spec, plus DESIGN.md's back-move to pending_kyc). */
export const CUSTOMER_TRANSITIONS: Readonly<
  Record<CustomerStatus, Readonly<Partial<Record<CustomerEvent, CustomerStatus>>>>
> = {
  pending_kyc: { kyc_submitted: 'under_review' },
  under_review: { kyc_reopened: 'pending_kyc', kyc_approved: 'active' },
  active: {},
};

export function nextCustomerStatus(status: CustomerStatus, event: CustomerEvent): CustomerStatus | undefined {
  return CUSTOMER_TRANSITIONS[status][event];
}

/** Whether any item waits on the customer (pending, pending_resubmission, pending_correction). */
export function hasOpenItems(kyc: readonly KycItemRecord[]): boolean {
  return kyc.some((item) => OPEN_ITEM_STATUSES.has(item.status));
}

export function allApproved(kyc: readonly KycItemRecord[]): boolean {
  return kyc.every((item) => item.status === 'approved');
}

/**
 * The move the items call for by themselves: back to pending_kyc when an item reopened during
 * review, on to under_review when nothing waits on the customer any more. Approval is not here:
 * it is the review's decision (a timed job or a control call), not a consequence of the items.
 */
export function impliedCustomerEvent(
  status: CustomerStatus,
  kyc: readonly KycItemRecord[],
): CustomerEvent | undefined {
  const open = hasOpenItems(kyc);
  if (status === 'under_review' && open) return 'kyc_reopened';
  if (status === 'pending_kyc' && !open) return 'kyc_submitted';
  return undefined;
}
