/**
 * Record shapes of customers and their KYC: KYC items, uploaded documents, biometrics sessions.
 * Each shape is a zod schema (what an imported or reloaded row is checked against) and its type is
 * derived from it, so the two cannot disagree.
 */
import { z } from 'zod';
import { normalizeCnpj } from '../finance/cnpj.js';
import { normalizeCpf } from '../finance/cpf.js';
import { count, idOf, instant, partnerId, receivedText, seq, text, trimmedText } from './record-rules.js';

const CUSTOMER_STATUSES = ['pending_kyc', 'under_review', 'active'] as const;
const KYC_ITEM_KINDS = ['document', 'data'] as const;
const KYC_ITEM_STATUSES = [
  'pending',
  'submitted',
  'approved',
  'pending_resubmission',
  'pending_correction',
] as const;

/** One KYC requirement of a customer, as stored (the public KycItem plus bookkeeping). */
export const KycItemRecordSchema = z.strictObject({
  kind: z.enum(KYC_ITEM_KINDS),
  type: z.string().regex(/^[a-z_]{1,40}$/, 'must be a KYC item type like identity_card_front'),
  description: text(500, 1),
  status: z.enum(KYC_ITEM_STATUSES),
  message: text(1000).nullable(),
  uploaded_at: instant.nullable(),
  /** The document currently standing for this item (uploads only). */
  document_id: idOf('doc_').nullable(),
  /** How many times the item was submitted (uploads, captures, corrections). */
  submissions: count(0, 1_000_000),
});

export const CustomerRecordSchema = z.strictObject({
  id: idOf('cust_'),
  seq,
  partner_id: partnerId,
  status: z.enum(CUSTOMER_STATUSES),
  /** 11 digits. */
  cpf: z.string().refine((cpf) => normalizeCpf(cpf) === cpf, 'must be the 11 digits of a valid CPF'),
  /** 14 characters [0-9A-Z], normalized. */
  cnpj: z
    .string()
    .refine((cnpj) => normalizeCnpj(cnpj) === cnpj, 'must be the 14 characters of a valid CNPJ')
    .nullable(),
  name: trimmedText(200).nullable(),
  email: z.union([z.email().max(254), z.literal('')]).nullable(),
  phone: z.union([z.string().regex(/^\+[1-9]\d{6,14}$/, 'must be E.164'), z.literal('')]).nullable(),
  trading_name: trimmedText(200).nullable(),
  external_id: text(255, 1).nullable(),
  kyc: z.array(KycItemRecordSchema).max(50),
  /** The pending "KYC review completes" job while under_review. */
  review_job_id: idOf('job_').nullable(),
  created_at: instant,
  updated_at: instant,
});

/** An uploaded KYC document: metadata and digest only, never the bytes. */
export const DocumentRecordSchema = z.strictObject({
  id: idOf('doc_'),
  seq,
  partner_id: partnerId,
  customer_id: idOf('cust_'),
  type: z.string().regex(/^[a-z_]{1,40}$/, 'must be a document type like selfie'),
  status: z.enum(['submitted', 'approved', 'rejected']),
  /** As the upload's multipart part named it (at most the request body limit). */
  file_name: receivedText(16 * 1024 * 1024),
  /** Detected from the leading bytes, never taken from the name or the declared type. */
  content_type: z.enum(['application/pdf', 'image/jpeg', 'image/png']),
  declared_content_type: receivedText(16 * 1024 * 1024),
  size: count(1, 10 * 1024 * 1024),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 hex digits'),
  uploaded_at: instant,
  created_at: instant,
  updated_at: instant,
});

/** A hosted biometrics capture session; the token in its URL is stored only as a SHA-256 hash. */
export const BiometricsSessionRecordSchema = z.strictObject({
  id: idOf('bio_'),
  seq,
  partner_id: partnerId,
  customer_id: idOf('cust_'),
  token_hash: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 hex digits'),
  status: z.enum(['open', 'approved', 'rejected']),
  expires_at: instant,
  completed_at: instant.nullable(),
  created_at: instant,
});

export type CustomerStatus = (typeof CUSTOMER_STATUSES)[number];
export type KycItemKind = (typeof KYC_ITEM_KINDS)[number];
export type KycItemStatus = (typeof KYC_ITEM_STATUSES)[number];
export type KycItemRecord = z.infer<typeof KycItemRecordSchema>;
export type CustomerRecord = z.infer<typeof CustomerRecordSchema>;
export type DocumentRecord = z.infer<typeof DocumentRecordSchema>;
export type DocumentStatus = DocumentRecord['status'];
export type BiometricsSessionRecord = z.infer<typeof BiometricsSessionRecordSchema>;
export type BiometricsSessionStatus = BiometricsSessionRecord['status'];
