// The spec's resources, written from its field tables ("Resources and their fields") as runtime
// schemas. Extra fields are allowed everywhere (the spec names some fields and leaves the rest
// "not shown"); every field the spec lists is required with the type, pattern or format it gives.
import { z } from 'zod';

/** "Timestamps are ISO 8601 date-time strings in UTC." */
export const DateTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|\+00:00)$/, 'an ISO 8601 date-time in UTC')
  .refine((value) => !Number.isNaN(Date.parse(value)), 'a real date-time');

/** `date (YYYY-MM-DD)`. */
export const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date YYYY-MM-DD')
  .refine((value) => new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), 'a real date');

/** "decimal with exactly 2 decimal places" (amounts in BRL). */
export const Money = z.string().regex(/^-?\d+\.\d{2}$/, 'a decimal string with exactly 2 decimal places');

/** A URI (absolute). */
export const Uri = z.string().refine((value) => URL.canParse(value), 'an absolute URI');

export const E164 = z.string().regex(/^\+[1-9]\d{1,14}$/, 'an E.164 phone number');

export const Email = z.email('an email address');

const prefixed = (prefix: string) =>
  z.string().regex(new RegExp(`^${prefix}\\S+$`), `an id starting ${prefix}`);

export const CUSTOMER_STATUSES = ['pending_kyc', 'under_review', 'active'] as const;
export const KYC_STATUSES = [
  'pending',
  'submitted',
  'approved',
  'pending_resubmission',
  'pending_correction',
] as const;
export const DOCUMENT_STATUSES = ['submitted', 'approved', 'rejected'] as const;
export const OFFER_STATUSES = ['available', 'accepted', 'expired'] as const;
export const LOAN_STATUSES = [
  'processing',
  'contract_generated',
  'awaiting_signatures',
  'signed',
  'disbursing',
  'active',
  'finished',
  'cancelled',
  'error',
] as const;
export const TRANSACTION_STATUSES = ['pending', 'paid', 'partially_paid', 'overdue'] as const;

export const KycItem = z.looseObject({
  kind: z.enum(['document', 'data']),
  type: z.string(),
  description: z.string(),
  status: z.enum(KYC_STATUSES),
  message: z.string().nullable(),
  uploaded_at: DateTime.nullable(),
});

export const Customer = z.looseObject({
  id: z.string().regex(/^cust_[0-9a-f]{32}$/, 'cust_ and 32 lowercase hex characters'),
  status: z.enum(CUSTOMER_STATUSES),
  cpf: z.string(),
  cnpj: z.string().nullable(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  trading_name: z.string().nullable(),
  external_id: z.string().nullable(),
  kyc: z.array(KycItem),
  created_at: DateTime,
  updated_at: DateTime,
});

export const DocumentShape = z.looseObject({
  id: z.string().regex(/^doc_[0-9a-f]{32}$/, 'doc_ and 32 lowercase hex characters'),
  type: z.string(),
  status: z.enum(DOCUMENT_STATUSES),
  uploaded_at: DateTime,
  created_at: DateTime,
  updated_at: DateTime,
});

export const BiometricsSession = z.looseObject({ session_url: Uri, expires_at: DateTime });

export const CreditOffer = z
  .looseObject({
    id: prefixed('co_'),
    customer_id: z.string(),
    status: z.enum(OFFER_STATUSES),
    approved_amount: Money,
    min_amount: Money,
    interest_rate: z.number(),
    installments: z.number().int().optional(),
    min_installments: z.unknown().optional(),
    max_installments: z.unknown().optional(),
    due_date_rule: z.string().nullable(),
    valid_until: DateTime,
    created_at: DateTime,
    updated_at: DateTime,
  })
  .refine(
    (offer) =>
      offer.installments !== undefined ||
      (offer.min_installments !== undefined && offer.max_installments !== undefined),
    {
      message: '`installments`, or `min_installments` and `max_installments` (a range replaces it)',
      path: ['installments'],
    },
  );

export const Simulation = z.looseObject({
  id: prefixed('sim_'),
  credit_offer_id: z.string(),
  requested_amount: Money,
  amount: Money,
  interest_amount: Money,
  fees_amount: Money,
  iof_amount: Money,
  total_loan_amount: Money,
  interest_percentage: z.number(),
  cet_percentage: z.number(),
  number_of_installments: z.number().int(),
  installments_value: Money,
  first_due_date: IsoDate,
  created_at: DateTime,
});

/** The loan fields the spec names (their types are "not shown": read as the resource tables write them). */
export const Loan = z.looseObject({
  id: prefixed('ln_'),
  status: z.enum(LOAN_STATUSES),
  credit_offer_id: z.string(),
  simulation_id: z.string(),
  installments: z.number().int(),
  installments_value: Money,
  first_due_date: IsoDate,
  requested_amount: Money,
  net_amount: Money.nullable().optional(),
  ccb_number: z.string().nullable().optional(),
  signing_url: Uri.nullable().optional(),
});

export const Transaction = z.looseObject({
  id: prefixed('tx_'),
  type: z.literal('installment'),
  due_date: IsoDate,
  amount_due: Money,
  status: z.enum(TRANSACTION_STATUSES),
  days_overdue: z.number().int().min(0),
});

export const WebhookEndpoint = z.looseObject({
  id: prefixed('we_'),
  url: z.string(),
  events: z.array(z.string()),
  description: z.string(),
  status: z.enum(['active', 'disabled']),
  created_at: DateTime,
  updated_at: DateTime,
});

export const WebhookSecret = z.string().regex(/^whsec_\S+$/, 'a secret starting whsec_');

export const RotatedSecret = z.looseObject({
  id: z.string(),
  secret: WebhookSecret,
  previous_secret_expires_at: DateTime,
});

/** `{data: array, has_more: boolean}`. */
export const ListEnvelope = z.looseObject({ data: z.array(z.unknown()), has_more: z.boolean() });

/** The problem format ("Errors"). */
export const Problem = z.looseObject({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  instance: z.string().optional(),
  code: z.string().optional(),
  param: z.string().optional(),
  errors: z
    .array(z.looseObject({ param: z.string(), detail: z.string(), code: z.string().optional() }))
    .optional(),
});

/** The webhook envelope ("Events"). */
export const EventEnvelope = z.looseObject({
  type: z.string(),
  timestamp: DateTime,
  data: z.looseObject({}),
});
