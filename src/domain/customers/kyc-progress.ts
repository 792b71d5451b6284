import type { DomainContext } from '../../engine/context.js';
import type { CustomerRecord, CustomerStatus, KycItemRecord } from '../../store/records.js';
import { ApiError, notFound } from '../errors.js';
import { type CustomerEvent, impliedCustomerEvent, nextCustomerStatus } from './customer-machine.js';
import { kycUpdatedEventData, statusEventData } from './customer-view.js';
import { nextDocumentStatus } from './document-machine.js';
import { eventAppliesTo, type KycItemEvent, nextKycItemStatus } from './kyc-item-machine.js';
import { itemMode } from './requirements.js';

/** Job kind: the KYC review that completes `kycReviewMs` after the last required item is submitted. */
export const KYC_REVIEW_JOB = 'customer.kyc_review';

/** The customer with this id of the context's partner, or a 404. */
export function getCustomer(ctx: Pick<DomainContext, 'store' | 'partnerId'>, id: string): CustomerRecord {
  const row = ctx.store.customers.get(id);
  if (!row || row.partner_id !== ctx.partnerId) throw notFound('customer', id);
  return row;
}

/** What a move records besides the status. */
export interface ItemChange {
  /** Review feedback; required for reject, capture_failed and request_correction. */
  message?: string;
  /** The document now standing for the item (uploads). */
  documentId?: string;
}

const SUBMITTING: ReadonlySet<KycItemEvent> = new Set(['submit', 'capture_passed', 'capture_failed']);
const WITH_MESSAGE: ReadonlySet<KycItemEvent> = new Set(['reject', 'capture_failed', 'request_correction']);

/**
 * The one path every KYC item change takes, automatic or controlled: checks the move against the
 * item and document tables, applies it (moving the item's current document along on a review),
 * then settles the customer and announces it (see `commitKyc`).
 */
export function moveKycItem(
  ctx: DomainContext,
  customer: CustomerRecord,
  type: string,
  event: KycItemEvent,
  change: ItemChange = {},
): CustomerRecord {
  const at = customer.kyc.findIndex((item) => item.type === type);
  const item = customer.kyc[at];
  if (!item) {
    throw new ApiError(
      'kyc_type_not_applicable',
      `Customer ${customer.id} has no KYC item "${type}". Its items: ${customer.kyc.map((i) => i.type).join(', ')}.`,
      { param: 'type' },
    );
  }
  if (!eventAppliesTo(itemMode(item), event)) {
    throw new ApiError(
      'kyc_type_not_applicable',
      `KYC item "${type}" is a ${item.kind === 'data' ? 'data field' : 'document'}; "${event}" does not apply to it.`,
      { param: 'type' },
    );
  }
  const status = nextKycItemStatus(item.status, event);
  if (!status) {
    throw new ApiError(
      'invalid_kyc_transition',
      `KYC item "${type}" of customer ${customer.id} is ${item.status}; "${event}" is not possible from there.`,
      { param: 'type' },
    );
  }
  if (item.document_id !== null && (event === 'approve' || event === 'reject')) {
    moveDocument(ctx, item.document_id, event);
  }
  const now = ctx.clock.iso();
  const submitting = SUBMITTING.has(event);
  const moved: KycItemRecord = {
    ...item,
    status,
    message: WITH_MESSAGE.has(event)
      ? (change.message ?? null)
      : submitting || event === 'approve'
        ? null
        : item.message,
    uploaded_at: submitting ? now : item.uploaded_at,
    document_id: change.documentId ?? item.document_id,
    submissions: item.submissions + (submitting ? 1 : 0),
  };
  const kyc = customer.kyc.map((existing, k) => (k === at ? moved : existing));
  return commitKyc(ctx, { ...customer, kyc, updated_at: now });
}

/**
 * Stores a customer whose kyc array changed and tells the partner: a reopened item sends the
 * customer back to pending_kyc in the same change (no event of its own exists for that, so
 * `customer.kyc_updated` carries the new status); then `customer.kyc_updated`; then, when nothing
 * waits on the customer any more, the separate move to under_review with its own event.
 */
export function commitKyc(ctx: DomainContext, next: CustomerRecord): CustomerRecord {
  let row = next;
  if (impliedCustomerEvent(row.status, row.kyc) === 'kyc_reopened') {
    if (row.review_job_id !== null) ctx.cancelJob(row.review_job_id);
    row = { ...row, status: customerMove(row.status, 'kyc_reopened'), review_job_id: null };
  }
  row = ctx.store.customers.replace(row);
  ctx.emit('customer.kyc_updated', kycUpdatedEventData(row));
  return startReviewIfComplete(ctx, row);
}

/** pending_kyc -> under_review once every item is submitted; the review completes on a timer. */
export function startReviewIfComplete(ctx: DomainContext, customer: CustomerRecord): CustomerRecord {
  if (impliedCustomerEvent(customer.status, customer.kyc) !== 'kyc_submitted') return customer;
  const job = ctx.schedule(
    KYC_REVIEW_JOB,
    { customer_id: customer.id },
    ctx.clock.nowMs() + ctx.timings.kycReviewMs,
  );
  const row = ctx.store.customers.replace({
    ...customer,
    status: customerMove(customer.status, 'kyc_submitted'),
    review_job_id: job.id,
    updated_at: ctx.clock.iso(),
  });
  ctx.emit('customer.under_review', statusEventData(row));
  return row;
}

/** under_review -> active when every item is approved (the review's conclusion). */
export function activateIfApproved(ctx: DomainContext, customer: CustomerRecord): CustomerRecord {
  if (customer.status !== 'under_review' || !customer.kyc.every((item) => item.status === 'approved')) {
    return customer;
  }
  if (customer.review_job_id !== null) ctx.cancelJob(customer.review_job_id);
  const row = ctx.store.customers.replace({
    ...customer,
    status: customerMove(customer.status, 'kyc_approved'),
    review_job_id: null,
    updated_at: ctx.clock.iso(),
  });
  ctx.emit('customer.active', statusEventData(row));
  return row;
}

function customerMove(status: CustomerStatus, event: CustomerEvent): CustomerStatus {
  const next = nextCustomerStatus(status, event);
  // The callers only ask for moves the items imply, so a miss is a bug, not a client error.
  if (!next) throw new Error(`customer cannot move from ${status} on ${event}`);
  return next;
}

/**
 * Closes the document of a requirement that is being dropped (a CNPJ removed takes its CCMEI
 * requirement away): one still awaiting review is rejected, so it cannot stay `submitted` forever
 * once its review job finds no item to review.
 */
export function retireItemDocument(ctx: DomainContext, item: KycItemRecord): void {
  if (item.document_id === null) return;
  if (ctx.store.documents.get(item.document_id)?.status === 'submitted')
    moveDocument(ctx, item.document_id, 'reject');
}

function moveDocument(ctx: DomainContext, documentId: string, event: 'approve' | 'reject'): void {
  const doc = ctx.store.documents.get(documentId);
  if (!doc) throw new Error(`document ${documentId} of a KYC item is missing`);
  const status = nextDocumentStatus(doc.status, event);
  if (!status) throw new Error(`document ${documentId} cannot move from ${doc.status} on ${event}`);
  ctx.store.documents.replace({ ...doc, status, updated_at: ctx.clock.iso() });
}
