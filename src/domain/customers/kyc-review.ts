import type { DomainContext } from '../../engine/context.js';
import type { CustomerRecord, JsonObject } from '../../store/records.js';
import { ApiError } from '../errors.js';
import { magicBehaviour } from '../magic-profiles.js';
import { activateIfApproved, commitKyc, getCustomer, moveKycItem } from './kyc-progress.js';
import { dataItem, isDataField, itemMode } from './requirements.js';

/** Job kind: one uploaded document is reviewed `documentReviewMs` after its upload. */
export const DOCUMENT_REVIEW_JOB = 'customer.document_review';

/** Feedback the magic `document_rejected_once` profile gives on a first upload. */
export const BLURRY_DOCUMENT_MESSAGE =
  'The image is blurry and the text cannot be read. Upload a sharp, well-lit picture of the whole document.';
/** Feedback the magic `correction_requested` profile gives at the KYC review. */
export const NAME_CORRECTION_MESSAGE =
  'The name does not match the identity document. Send the full name as printed on it (PATCH the customer).';

/** The automatic document review: approved, unless a magic profile rejects a first upload. */
export function reviewDocumentJob(ctx: DomainContext, payload: JsonObject): void {
  const doc = ctx.store.documents.get(String(payload.document_id));
  if (doc?.status !== 'submitted') return; // already decided by a control call
  const customer = getCustomer(ctx, doc.customer_id);
  const item = customer.kyc.find((i) => i.type === doc.type);
  if (!item || item.document_id !== doc.id || item.status !== 'submitted') return;
  if (magicBehaviour(customer.cpf) === 'document_rejected_once' && item.submissions === 1) {
    moveKycItem(ctx, customer, doc.type, 'reject', { message: BLURRY_DOCUMENT_MESSAGE });
    return;
  }
  moveKycItem(ctx, customer, doc.type, 'approve');
}

/**
 * The automatic KYC review, `kycReviewMs` after the customer went under review: approves what is
 * still submitted and activates the customer, unless the magic `correction_requested` profile asks
 * (once) for the name to be corrected.
 */
export function kycReviewJob(ctx: DomainContext, payload: JsonObject): void {
  const customer = ctx.store.customers.get(String(payload.customer_id));
  if (customer?.status !== 'under_review') return;
  // The job has run: forget its id so nothing tries to cancel it.
  const current = ctx.store.customers.replace({ ...customer, review_job_id: null });
  const asksCorrection =
    magicBehaviour(current.cpf) === 'correction_requested' && !current.kyc.some((i) => i.type === 'name');
  if (asksCorrection) {
    requestCorrectionOf(ctx, current, 'name', NAME_CORRECTION_MESSAGE);
    return;
  }
  activateIfApproved(ctx, approveSubmitted(ctx, current));
}

/** Approves every submitted item (and its document), one move and one event each. */
export function approveSubmitted(ctx: DomainContext, customer: CustomerRecord): CustomerRecord {
  let row = customer;
  for (const item of customer.kyc) {
    if (item.status === 'submitted') row = moveKycItem(ctx, row, item.type, 'approve');
  }
  return row;
}

/** Control: approve every submitted item now and, when under review with all approved, activate. */
export function approveKycNow(ctx: DomainContext, customerId: string): CustomerRecord {
  return activateIfApproved(ctx, approveSubmitted(ctx, getCustomer(ctx, customerId)));
}

/** Control: reject a document or the biometrics (item -> pending_resubmission, document -> rejected). */
export function rejectKycItem(
  ctx: DomainContext,
  customerId: string,
  type: string,
  message: string,
): CustomerRecord {
  const customer = notActive(getCustomer(ctx, customerId));
  return moveKycItem(ctx, customer, type, 'reject', { message });
}

/** Control: ask for a data field to be corrected; adds the `data` item when it is not there yet. */
export function requestKycCorrection(
  ctx: DomainContext,
  customerId: string,
  type: string,
  message: string,
): CustomerRecord {
  return requestCorrectionOf(ctx, notActive(getCustomer(ctx, customerId)), type, message);
}

function requestCorrectionOf(
  ctx: DomainContext,
  customer: CustomerRecord,
  type: string,
  message: string,
): CustomerRecord {
  const existing = customer.kyc.find((i) => i.type === type);
  if (existing && itemMode(existing) !== 'data') {
    throw new ApiError(
      'kyc_type_not_applicable',
      `"${type}" is a document; documents are rejected (POST …/kyc/${type}/reject), not corrected.`,
      { param: 'type' },
    );
  }
  if (existing) return moveKycItem(ctx, customer, type, 'request_correction', { message });
  if (!isDataField(type)) {
    throw new ApiError(
      'kyc_type_not_applicable',
      `"${type}" is not a correctable field. Correctable fields: name, email, phone, cnpj, trading_name.`,
      { param: 'type' },
    );
  }
  // A new data item enters the machine already asking for the correction.
  const item = { ...dataItem(type), status: 'pending_correction' as const, message };
  return commitKyc(ctx, { ...customer, kyc: [...customer.kyc, item], updated_at: ctx.clock.iso() });
}

function notActive(customer: CustomerRecord): CustomerRecord {
  if (customer.status === 'active') {
    throw new ApiError(
      'kyc_completed',
      `Customer ${customer.id} is active: its KYC was approved and can no longer be reopened.`,
    );
  }
  return customer;
}
