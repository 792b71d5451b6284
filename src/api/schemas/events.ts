import { z } from '@hono/zod-openapi';
import { ALL_EVENT_PATTERNS } from '../../engine/event-types.js';
import { DateTime } from './common.js';
import { KycItemSchema } from './customers.js';

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
    email: z
      .string()
      .openapi({ example: 'maria.silva@example.com', description: 'Empty string when never sent' }),
    phone: z.string().openapi({ example: '+5511987654321', description: 'Empty string when never sent' }),
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
    status: z.string().openapi({ example: 'pending_kyc' }),
    external_id: z.string().nullable().openapi({ example: 'crm-000123' }),
    kyc: z.array(KycItemSchema),
  })
  .openapi('CustomerKycUpdatedData');
