/** Record shapes of customers and their KYC: KYC items, uploaded documents, biometrics sessions. */

export type CustomerStatus = 'pending_kyc' | 'under_review' | 'active';
export type KycItemKind = 'document' | 'data';
export type KycItemStatus =
  | 'pending'
  | 'submitted'
  | 'approved'
  | 'pending_resubmission'
  | 'pending_correction';

/** One KYC requirement of a customer, as stored (the public KycItem plus bookkeeping). */
export interface KycItemRecord {
  kind: KycItemKind;
  type: string;
  description: string;
  status: KycItemStatus;
  message: string | null;
  uploaded_at: string | null;
  /** The document currently standing for this item (uploads only). */
  document_id: string | null;
  /** How many times the item was submitted (uploads, captures, corrections). */
  submissions: number;
}

export interface CustomerRecord {
  id: string;
  seq: number;
  partner_id: string;
  status: CustomerStatus;
  /** 11 digits. */
  cpf: string;
  /** 14 characters [0-9A-Z], normalized. */
  cnpj: string | null;
  name: string | null;
  email: string | null;
  phone: string | null;
  trading_name: string | null;
  external_id: string | null;
  kyc: KycItemRecord[];
  /** The pending "KYC review completes" job while under_review. */
  review_job_id: string | null;
  created_at: string;
  updated_at: string;
}

export type DocumentStatus = 'submitted' | 'approved' | 'rejected';

/** An uploaded KYC document: metadata and digest only, never the bytes. */
export interface DocumentRecord {
  id: string;
  seq: number;
  partner_id: string;
  customer_id: string;
  type: string;
  status: DocumentStatus;
  file_name: string;
  /** Detected from the leading bytes, never taken from the name or the declared type. */
  content_type: 'application/pdf' | 'image/jpeg' | 'image/png';
  declared_content_type: string;
  size: number;
  sha256: string;
  uploaded_at: string;
  created_at: string;
  updated_at: string;
}

export type BiometricsSessionStatus = 'open' | 'approved' | 'rejected';

/** A hosted biometrics capture session; the token in its URL is stored only as a SHA-256 hash. */
export interface BiometricsSessionRecord {
  id: string;
  seq: number;
  partner_id: string;
  customer_id: string;
  token_hash: string;
  status: BiometricsSessionStatus;
  expires_at: string;
  completed_at: string | null;
  created_at: string;
}
