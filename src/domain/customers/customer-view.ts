import { viewText } from '../../lib/view-text.js';
import type { CustomerRecord, DocumentRecord, KycItemRecord } from '../../store/records.js';

/** The public KycItem (spec fields only). */
export type KycItemView = {
  kind: KycItemRecord['kind'];
  type: string;
  description: string;
  status: KycItemRecord['status'];
  message: string | null;
  uploaded_at: string | null;
};

/**
 * The public Customer: every spec field, nullable ones as null. `name`, `email` and `phone` are
 * strings in the spec (not "string or null"): one the partner never sent is an empty string.
 */
export type CustomerView = {
  id: string;
  status: CustomerRecord['status'];
  cpf: string;
  cnpj: string | null;
  name: string;
  email: string;
  phone: string;
  trading_name: string | null;
  external_id: string | null;
  kyc: KycItemView[];
  created_at: string;
  updated_at: string;
};

export function kycItemView(item: KycItemRecord): KycItemView {
  return {
    kind: item.kind,
    type: item.type,
    description: item.description,
    status: item.status,
    message: item.message,
    uploaded_at: item.uploaded_at,
  };
}

export function customerView(row: CustomerRecord): CustomerView {
  return {
    id: row.id,
    status: row.status,
    cpf: row.cpf,
    cnpj: row.cnpj,
    name: row.name ?? '',
    email: row.email ?? '',
    phone: row.phone ?? '',
    trading_name: row.trading_name,
    external_id: row.external_id,
    kyc: row.kyc.map(kycItemView),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The customer's JSON, serialised once per row version. */
export const customerJson = viewText(customerView);

/** `customer.created` data, exactly the spec's fields. */
export function createdEventData(row: CustomerRecord) {
  return {
    id: row.id,
    status: row.status,
    cpf: row.cpf,
    cnpj: row.cnpj,
    name: row.name ?? '',
    email: row.email ?? '',
    phone: row.phone ?? '',
    trading_name: row.trading_name,
    external_id: row.external_id,
  };
}

/** `customer.kyc_updated` data: the customer's status and its full current kyc array. */
export function kycUpdatedEventData(row: CustomerRecord) {
  return { id: row.id, status: row.status, external_id: row.external_id, kyc: row.kyc.map(kycItemView) };
}

/** `customer.under_review` / `customer.active` data. */
export function statusEventData(row: CustomerRecord) {
  return { id: row.id, status: row.status, external_id: row.external_id };
}

/** The public Document: the spec's fields plus the customer and what the sandbox read from the file. */
export type DocumentView = {
  id: string;
  customer_id: string;
  type: string;
  status: DocumentRecord['status'];
  file: { name: string; content_type: DocumentRecord['content_type']; size: number; sha256: string };
  uploaded_at: string;
  created_at: string;
  updated_at: string;
};

export function documentView(row: DocumentRecord): DocumentView {
  return {
    id: row.id,
    customer_id: row.customer_id,
    type: row.type,
    status: row.status,
    file: { name: row.file_name, content_type: row.content_type, size: row.size, sha256: row.sha256 },
    uploaded_at: row.uploaded_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
