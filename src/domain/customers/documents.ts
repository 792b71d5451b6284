import { createHash } from 'node:crypto';
import type { DomainContext } from '../../engine/context.js';
import type { CustomerRecord, DocumentRecord } from '../../store/records.js';
import { ApiError, notFound } from '../errors.js';
import { sniffDocumentType } from './file-signature.js';
import { getCustomer, moveKycItem } from './kyc-progress.js';
import { DOCUMENT_REVIEW_JOB } from './kyc-review.js';
import { itemMode } from './requirements.js';
import { MAX_DOCUMENT_BYTES } from './timings.js';

export interface UploadedFile {
  name: string;
  /** The content type the client declared; kept for support, never trusted. */
  declaredType: string;
  bytes: Uint8Array;
}

/**
 * Stores an upload for one of the customer's document requirements and submits the KYC item; the
 * review follows `documentReviewMs` later. Every check runs before anything is written, so a
 * refused upload leaves no trace.
 */
export function uploadDocument(
  ctx: DomainContext,
  customerId: string,
  type: string,
  file: UploadedFile,
): { document: DocumentRecord; customer: CustomerRecord } {
  const customer = getCustomer(ctx, customerId);
  const item = customer.kyc.find((i) => i.type === type);
  if (!item || itemMode(item) !== 'upload') {
    const uploads = customer.kyc.filter((i) => itemMode(i) === 'upload').map((i) => i.type);
    const hint =
      item && itemMode(item) === 'capture'
        ? ' Biometrics are captured on the hosted page: POST /v3/customers/{id}/biometrics.'
        : item
          ? ` "${type}" is a data field: correct it with PATCH /v3/customers/{id}.`
          : '';
    throw new ApiError(
      'document_type_not_required',
      `"${type}" is not a document requirement of customer ${customer.id}. Accepted types: ${uploads.join(', ')}.${hint}`,
      { param: 'type' },
    );
  }
  if (file.bytes.byteLength > MAX_DOCUMENT_BYTES) {
    throw new ApiError(
      'file_too_large',
      `The file is ${file.bytes.byteLength} bytes; documents are limited to ${MAX_DOCUMENT_BYTES} bytes (10 MiB).`,
      { param: 'file' },
    );
  }
  if (file.bytes.byteLength === 0) {
    throw new ApiError('empty_file', 'The uploaded file is empty (0 bytes). Attach the document itself.', {
      param: 'file',
    });
  }
  const contentType = sniffDocumentType(file.bytes);
  if (!contentType) {
    throw new ApiError(
      'unsupported_file_type',
      `"${file.name}" is not a PDF, JPEG or PNG file (its leading bytes match none of them, whatever its name or declared type "${file.declaredType}").`,
      { param: 'file' },
    );
  }
  if (item.status !== 'pending' && item.status !== 'pending_resubmission') {
    throw new ApiError(
      'kyc_item_not_accepting',
      `KYC item "${type}" of customer ${customer.id} is ${item.status}; uploads are accepted while it is pending or pending_resubmission.`,
      { param: 'type' },
    );
  }

  const now = ctx.clock.iso();
  const document = ctx.store.documents.insert({
    id: ctx.ids('doc_'),
    seq: ctx.store.nextSeq(),
    partner_id: ctx.partnerId,
    customer_id: customer.id,
    type,
    status: 'submitted',
    file_name: file.name,
    content_type: contentType,
    declared_content_type: file.declaredType,
    size: file.bytes.byteLength,
    sha256: createHash('sha256').update(file.bytes).digest('hex'),
    uploaded_at: now,
    created_at: now,
    updated_at: now,
  });
  const updated = moveKycItem(ctx, customer, type, 'submit', { documentId: document.id });
  ctx.schedule(
    DOCUMENT_REVIEW_JOB,
    { customer_id: customer.id, document_id: document.id },
    ctx.clock.nowMs() + ctx.timings.documentReviewMs,
  );
  return { document, customer: updated };
}

/** One document of one customer of the context's partner, or a 404. */
export function getDocument(ctx: DomainContext, customerId: string, documentId: string): DocumentRecord {
  const customer = getCustomer(ctx, customerId);
  const doc = ctx.store.documents.get(documentId);
  if (!doc || doc.customer_id !== customer.id) throw notFound('document', documentId);
  return doc;
}
