import { z } from '@hono/zod-openapi';
import { ALL_EVENT_PATTERNS } from '../../engine/event-types.js';
import { DateTime } from './common.js';
import { CUSTOMER_STATUSES, EmailOrEmpty, KycItemSchema, PhoneOrEmpty } from './customers.js';
import { LoanSchema } from './loans.js';

export const EventSchema = z
  .object({
    id: z.string().openapi({ example: 'evt_3f2a0c1d9b8e4f6a7c5d2e1b0a9f8e7d' }),
    type: z.string().openapi({ example: 'customer.created' }),
    timestamp: DateTime,
    data: z.record(z.string(), z.unknown()),
  })
  .openapi('Event');

export const EventPattern = z.enum(ALL_EVENT_PATTERNS as [string, ...string[]]);

/** `data` of `customer.created`: the customer's registration fields. */
export const CustomerCreatedData = z
  .object({
    id: z.string().openapi({ example: 'cust_3f2a0c1d9b8e4f6a7c5d2e1b0a9f8e7d' }),
    status: z.literal('pending_kyc'),
    cpf: z.string().openapi({ example: '52998224725' }),
    cnpj: z.string().nullable().openapi({ example: null }),
    name: z.string().openapi({ example: 'Maria da Silva', description: 'Empty string when never sent' }),
    email: EmailOrEmpty,
    phone: PhoneOrEmpty,
    trading_name: z.string().nullable().openapi({ example: null }),
    external_id: z.string().nullable().openapi({ example: 'crm-000123' }),
  })
  .openapi('CustomerCreatedData');

/** `data` of `customer.under_review` and `customer.active`. */
export const CustomerStatusData = z
  .object({
    id: z.string().openapi({ example: 'cust_3f2a0c1d9b8e4f6a7c5d2e1b0a9f8e7d' }),
    status: z.enum(['under_review', 'active']).openapi({ example: 'active' }),
    external_id: z.string().nullable().openapi({ example: 'crm-000123' }),
  })
  .openapi('CustomerStatusData');

/** `data` of `customer.kyc_updated`: the status and every KYC item. */
export const CustomerKycUpdatedData = z
  .object({
    id: z.string().openapi({ example: 'cust_3f2a0c1d9b8e4f6a7c5d2e1b0a9f8e7d' }),
    status: z.enum(CUSTOMER_STATUSES).openapi({ example: 'pending_kyc' }),
    external_id: z.string().nullable().openapi({ example: 'crm-000123' }),
    kyc: z.array(KycItemSchema),
  })
  .openapi('CustomerKycUpdatedData');

/** `data` of `loan.payment_received`: the loan after the payment, and what the payment did. */
export const LoanPaymentReceivedData = LoanSchema.extend({
  transaction_id: z.string().openapi({ example: 'tx_3f2a0c1d9b8e4f6a7c5d2e1b0a9f8e7d' }),
  installment_number: z.number().int().min(1).openapi({ example: 1 }),
  amount_paid: z
    .string()
    .regex(/^\d+\.\d{2}$/)
    .openapi({ example: '945.60', description: 'This payment' }),
  payment_date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .openapi({ example: '2026-04-01', description: 'São Paulo date of the payment' }),
  applied_to_late_charges: z
    .string()
    .regex(/^\d+\.\d{2}$/)
    .openapi({ example: '0.00' }),
  applied_to_installment: z
    .string()
    .regex(/^\d+\.\d{2}$/)
    .openapi({ example: '945.60' }),
  installment_status: z.enum(['pending', 'partially_paid', 'paid', 'overdue']).openapi({ example: 'paid' }),
}).openapi('LoanPaymentReceivedData');

/** `data` of `loan.cancelled`: the loan and why it was cancelled. */
export const LoanCancelledData = LoanSchema.extend({
  reason: z.enum(['cancelled', 'signature_declined', 'signature_expired']).openapi({ example: 'cancelled' }),
}).openapi('LoanCancelledData');
