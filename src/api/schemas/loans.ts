import { z } from '@hono/zod-openapi';
import { LOAN_STATUSES, TRANSACTION_STATUSES } from '../../store/credit-records.js';
import { DateTime } from './common.js';
import { IsoDateString, Money, PositiveMoneyInput } from './credit.js';

export const LoanStatus = z.enum(LOAN_STATUSES);

export const LoanSchema = z
  .object({
    id: z.string().openapi({ example: 'ln_3f2a0c1d9b8e4f6a7c5d2e1b0a9f8e7d' }),
    status: LoanStatus,
    customer_id: z.string(),
    credit_offer_id: z.string(),
    simulation_id: z.string(),
    requested_amount: Money,
    net_amount: Money.nullable().openapi({
      description: 'Amount disbursed to the customer; null until active',
    }),
    installments: z.number().int(),
    installments_value: Money,
    first_due_date: IsoDateString,
    total_loan_amount: Money,
    ccb_number: z.string().nullable().openapi({
      description: 'Credit note number, from contract_generated on',
      example: 'CCB-20260302-0000000001',
    }),
    signing_url: z.string().url().nullable().openapi({
      description:
        'Hosted contract page; from contract_generated until the loan leaves awaiting_signatures (signing buttons only while awaiting_signatures), otherwise null',
    }),
    disbursement: z
      .object({
        method: z.literal('pix'),
        end_to_end_id: z.string().openapi({
          description: 'pix end-to-end id (32 characters)',
          example: 'E9999999920260302120000AbCdEfGhIjK',
        }),
        disbursed_at: DateTime.nullable(),
      })
      .nullable(),
    error: z
      .object({
        code: z.string().openapi({ example: 'disbursement_failed' }),
        message: z.string().openapi({ example: 'The pix transfer was refused by the receiving bank.' }),
      })
      .nullable()
      .openapi({ description: 'Set when the loan is in `error`: what failed; otherwise null' }),
    cancelled_at: DateTime.nullable(),
    created_at: DateTime,
    updated_at: DateTime,
  })
  .openapi('Loan');

export const CreateLoanBody = z
  .object({
    credit_offer_id: z.string().min(1),
    simulation_id: z.string().min(1).openapi({ description: 'The latest simulation of the offer' }),
    installments: z
      .number()
      .int()
      .optional()
      .openapi({ description: "When sent, must equal the simulation's" }),
    installments_value: Money.optional().openapi({ description: "When sent, must equal the simulation's" }),
    first_due_date: IsoDateString.optional().openapi({
      description: "When sent, must equal the simulation's",
    }),
  })
  .strict()
  .openapi('CreateLoanRequest');

export const LoanIdParam = z.object({
  loan_id: z.string().openapi({ param: { name: 'loan_id', in: 'path' } }),
});

export const LoanListQuery = z.object({
  customer_id: z
    .string()
    .min(1)
    .optional()
    .openapi({ param: { name: 'customer_id', in: 'query' } }),
  status: LoanStatus.optional().openapi({ param: { name: 'status', in: 'query' } }),
});

const Charges = z.object({ fine: Money, interest: Money, total: Money }).openapi('LateCharges', {
  description:
    '2 % fine once plus 1 % a month pro rata die on the unpaid part of amount_due; shown apart from amount_due',
});

export const TransactionSchema = z
  .object({
    id: z.string().openapi({ example: 'tx_3f2a0c1d9b8e4f6a7c5d2e1b0a9f8e7d' }),
    loan_id: z.string(),
    type: z.literal('installment'),
    installment_number: z.number().int(),
    due_date: IsoDateString.openapi({
      description: 'The contractual due date; days_overdue and late charges count from it',
    }),
    payable_until: IsoDateString.openapi({
      description:
        'The first banking business day on or after due_date (Lei 7.089/1983): paid by then, the installment is on time; overdue from the day after',
    }),
    amount_due: Money.openapi({ description: 'The installment value (without late charges)' }),
    amount_paid: Money.openapi({ description: 'Received so far, late charges included' }),
    amount_outstanding: Money.openapi({
      description: 'What settles the installment today (unpaid amount_due + unpaid late charges)',
    }),
    status: z.enum(TRANSACTION_STATUSES),
    days_overdue: z.number().int().openapi({
      description:
        'Whole days past the contractual due_date while overdue (so a Monday payable_until paid Tuesday counts from the Saturday due date); 0 otherwise',
    }),
    late_charges: Charges,
    paid_at: DateTime.nullable(),
    created_at: DateTime,
    updated_at: DateTime,
  })
  .openapi('Transaction');

export const FailLoanBody = z
  .object({ stage: z.enum(['contract', 'disbursement']) })
  .strict()
  .openapi('FailLoanRequest');

export const PaymentBody = z
  .object({
    amount: PositiveMoneyInput.openapi({
      description: "At most the installment's amount_outstanding; at most 2 decimal places",
      example: '945.60',
    }),
    installment_number: z
      .number()
      .int()
      .min(1)
      .optional()
      .openapi({ description: 'Defaults to the oldest open installment' }),
  })
  .strict()
  .openapi('PaymentRequest');

export const PaymentReceiptSchema = z
  .object({
    loan_id: z.string(),
    transaction_id: z.string(),
    installment_number: z.number().int(),
    amount: Money,
    applied_to_late_charges: Money,
    applied_to_installment: Money,
    payment_date: IsoDateString,
    transaction: TransactionSchema,
    loan: LoanSchema,
  })
  .openapi('PaymentReceipt');
