import { z } from '@hono/zod-openapi';
import { CUSTOMER_SORTS } from '../../store/customer-indexes.js';
import { DateTime, OrderQuery, PageQuery } from './common.js';

export const CUSTOMER_STATUSES = ['pending_kyc', 'under_review', 'active'] as const;
const KYC_STATUSES = [
  'pending',
  'submitted',
  'approved',
  'pending_resubmission',
  'pending_correction',
] as const;

// Shape only (400); check digits are a rule, checked in the domain (422).
const Cpf = z
  .string()
  .trim()
  .regex(/^\d{3}\.?\d{3}\.?\d{3}-?\d{2}$/, 'must be 11 digits, bare (12345678909) or masked (123.456.789-09)')
  .openapi({ example: '123.456.789-09', description: 'Bare or masked; stored and returned as 11 digits' });
const Cnpj = z
  .string()
  .trim()
  .regex(
    /^[0-9A-Za-z]{2}\.?[0-9A-Za-z]{3}\.?[0-9A-Za-z]{3}\/?[0-9A-Za-z]{4}-?\d{2}$/,
    'must be 14 characters (12 digits or letters + 2 check digits), bare or masked (12.ABC.345/01DE-35)',
  )
  .openapi({
    example: '12.ABC.345/01DE-35',
    description: 'Numeric or alphanumeric, bare or masked; stored as 14 uppercase characters',
  });
const Name = z.string().trim().min(1).max(200).openapi({ example: 'Maria da Silva' });
const Email = z.email('must be an email address').max(254).openapi({ example: 'maria@example.com' });
const Phone = z
  .string()
  .regex(
    /^\+[1-9]\d{6,14}$/,
    'must be E.164: "+" then country code and number, 7 to 15 digits, e.g. +5511987654321',
  )
  .openapi({ example: '+5511987654321' });
/** As answered: the address, or an empty string when never sent. */
export const EmailOrEmpty = z
  .union([z.email().max(254), z.literal('')])
  .openapi({ example: 'maria.silva@example.com', description: 'Empty string when never sent' });
/** As answered: an E.164 number, or an empty string when never sent. */
export const PhoneOrEmpty = z
  .union([z.string().regex(/^\+[1-9]\d{6,14}$/), z.literal('')])
  .openapi({ example: '+5511987654321', description: 'E.164; empty string when never sent' });
const TradingName = z.string().trim().min(1).max(200).openapi({ example: 'Maria Doces' });
const ExternalId = z.string().min(1).max(255).openapi({ example: 'user-4711' });

export const CreateCustomerBody = z
  .object({
    cpf: Cpf,
    cnpj: Cnpj.nullable().optional(),
    name: Name.nullable().optional(),
    email: Email.nullable().optional(),
    phone: Phone.nullable().optional(),
    trading_name: TradingName.nullable().optional(),
    external_id: ExternalId.nullable().optional(),
  })
  .strict()
  .openapi('CreateCustomerRequest');

export const UpdateCustomerBody = z
  .object({
    email: Email.optional(),
    phone: Phone.optional(),
    name: Name.optional(),
    cnpj: Cnpj.nullable().optional(),
    trading_name: TradingName.nullable().optional(),
  })
  .strict()
  .openapi('UpdateCustomerRequest', {
    description: '`cpf` and `external_id` cannot change: sending either answers 422 `immutable_field`.',
  });

export const KycItemSchema = z
  .object({
    kind: z.enum(['document', 'data']),
    type: z.string().openapi({ example: 'identity_card_front' }),
    description: z.string().openapi({ example: 'Identity card (front)' }),
    status: z.enum(KYC_STATUSES),
    message: z.string().nullable(),
    uploaded_at: DateTime.nullable(),
  })
  .openapi('KycItem');

export const CustomerSchema = z
  .object({
    id: z
      .string()
      .regex(/^cust_[0-9a-f]{32}$/)
      .openapi({ example: 'cust_3f2a0c1d9b8e4f6a7c5d2e1b0a9f8e7d' }),
    status: z.enum(CUSTOMER_STATUSES),
    cpf: z.string().openapi({ example: '12345678909' }),
    cnpj: z.string().nullable(),
    name: z.string().openapi({ description: 'Empty string when never sent' }),
    email: EmailOrEmpty,
    phone: PhoneOrEmpty,
    trading_name: z.string().nullable(),
    external_id: z.string().nullable(),
    kyc: z.array(KycItemSchema),
    created_at: DateTime,
    updated_at: DateTime,
  })
  .openapi('Customer');

export const CustomerListQuery = PageQuery.extend(OrderQuery.shape).extend({
  sort: z
    .enum(CUSTOMER_SORTS as [string, ...string[]])
    .default('created_at')
    .openapi({ param: { name: 'sort', in: 'query' } }),
  status: z
    .enum(CUSTOMER_STATUSES)
    .optional()
    .openapi({ param: { name: 'status', in: 'query' } }),
  cpf: z
    .string()
    .optional()
    .openapi({ param: { name: 'cpf', in: 'query' }, description: 'Bare or masked' }),
  external_id: z
    .string()
    .optional()
    .openapi({ param: { name: 'external_id', in: 'query' } }),
});

export const CustomerIdParam = z.object({
  customer_id: z.string().openapi({ param: { name: 'customer_id', in: 'path' } }),
});

export const DocumentSchema = z
  .object({
    id: z
      .string()
      .regex(/^doc_[0-9a-f]{32}$/)
      .openapi({ example: 'doc_0c1d9b8e4f6a7c5d2e1b0a9f8e7d3f2a' }),
    customer_id: z.string(),
    type: z.string().openapi({ example: 'identity_card_front' }),
    status: z.enum(['submitted', 'approved', 'rejected']),
    file: z
      .object({
        name: z.string().openapi({ example: 'identity-front.pdf' }),
        content_type: z.enum(['application/pdf', 'image/jpeg', 'image/png']),
        size: z.number().int(),
        sha256: z.string(),
      })
      .openapi({
        description: 'Sandbox extra: what was read from the upload (format from its leading bytes)',
      }),
    uploaded_at: DateTime,
    created_at: DateTime,
    updated_at: DateTime,
  })
  .openapi('Document');

export const UploadDocumentBody = z
  .object({
    type: z.string().min(1).openapi({ example: 'identity_card_front' }),
    file: z
      .custom<File>((value) => value instanceof File, 'must be a file part (a form field with a filename)')
      .openapi({ type: 'string', format: 'binary', description: 'PDF, JPEG or PNG, at most 10 MiB' }),
  })
  .openapi('UploadDocumentRequest');

export const BiometricsSessionSchema = z
  .object({
    session_url: z
      .string()
      .url()
      .openapi({ example: 'http://localhost:8080/hosted/biometrics/bio_3f2a0c1d9b8e4f6a7c5d2e1b0a9f8e7d' }),
    expires_at: DateTime,
  })
  .openapi('BiometricsSession');
