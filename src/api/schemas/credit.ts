import { z } from '@hono/zod-openapi';
import { DUE_DATE_RULES } from '../../domain/credit/offer-terms.js';
import { OFFER_STATUSES } from '../../store/credit-records.js';
import { DateTime } from './common.js';

const MONEY = /^(0|[1-9]\d{0,11})\.\d{2}$/;

/** A BRL amount: a decimal string with exactly 2 places. */
export const Money = z
  .string()
  .regex(MONEY, 'must be a decimal string with exactly 2 places, e.g. "5000.00"')
  .openapi({ example: '5000.00' });

// An amount a client sends: up to 12 integer digits without leading zeros and at most 2 places.
const MONEY_INPUT = /^(0|[1-9]\d{0,11})(\.\d{1,2})?$/;

/**
 * An amount a client sends ("5000", "1000.5", "1000.50"): any non-negative decimal string with at
 * most 2 places. The operation answers it normalized to exactly 2 places ("5000.00").
 */
export const MoneyInput = z
  .string()
  .regex(MONEY_INPUT, {
    error: (issue) =>
      typeof issue.input === 'string' && /^\d+\.\d{3,}$/.test(issue.input)
        ? `has more than 2 decimal places ("${issue.input}"); send at most 2, e.g. "1000.50"`
        : 'must be a non-negative decimal string with at most 2 places, e.g. "5000" or "5000.00"',
  })
  .openapi({ example: '5000.00' });

/** A money amount above zero. */
// Money's pattern allows no leading zeros, so "0.00" is the only way to write zero.
export const PositiveMoney = Money.refine((value) => value !== '0.00', 'must be greater than 0.00');

/** A client-sent amount above zero (see MoneyInput). */
export const PositiveMoneyInput = MoneyInput.refine(
  (value) => !/^0(\.0{1,2})?$/.test(value),
  'must be greater than 0.00',
);

export const IsoDateString = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written YYYY-MM-DD')
  .openapi({ example: '2026-04-15' });

export const OfferStatus = z.enum(OFFER_STATUSES);

const CreditOfferFields = {
  id: z.string().openapi({ example: 'co_3f2a0c1d9b8e4f6a7c5d2e1b0a9f8e7d' }),
  customer_id: z.string(),
  status: OfferStatus,
  approved_amount: Money.openapi({ example: '10000.00' }),
  min_amount: Money.openapi({ example: '500.00' }),
  interest_rate: z.number().openapi({ description: 'Monthly interest rate, percent', example: 2 }),
  due_date_rule: z.enum(DUE_DATE_RULES).nullable().openapi({
    description:
      "`null`: first installment due 30 days after the simulation; `same_day_next_month`: on the same day of the next month (clamped to its last day). Later installments fall monthly on the first due date's day.",
  }),
  valid_until: DateTime,
  created_at: DateTime,
  updated_at: DateTime,
};

/**
 * The spec's CreditOffer: `installments`, or — when the product supports a range — `min_installments`
 * and `max_installments` in its place. Exactly one of the two shapes (`oneOf`: an offer with both,
 * or with neither, is not one).
 */
export const CreditOfferSchema = z
  .union([
    z
      .object({
        ...CreditOfferFields,
        installments: z.number().int().openapi({ description: 'Fixed number of installments', example: 12 }),
      })
      .openapi({ title: 'Credit offer with a fixed number of installments' }),
    z
      .object({
        ...CreditOfferFields,
        min_installments: z
          .number()
          .int()
          .openapi({ description: 'Fewest installments allowed', example: 6 }),
        max_installments: z.number().int().openapi({ description: 'Most installments allowed', example: 24 }),
      })
      .openapi({ title: 'Credit offer with a range of installments' }),
  ])
  .openapi('CreditOffer', {}, { unionPreferredType: 'oneOf' });

export const CreditOfferIdParam = z.object({
  credit_offer_id: z.string().openapi({ param: { name: 'credit_offer_id', in: 'path' } }),
});

export const OfferListQuery = z.object({
  customer_id: z
    .string()
    .min(1)
    .optional()
    .openapi({ param: { name: 'customer_id', in: 'query' } }),
  status: OfferStatus.optional().openapi({ param: { name: 'status', in: 'query' } }),
});

export const CreateSimulationBody = z
  .object({
    requested_amount: MoneyInput.openapi({
      description:
        'Between the offer\'s min_amount and approved_amount; at most 2 decimal places ("5000", "5000.5" and "5000.50" are accepted and answered as "5000.00" / "5000.50")',
    }),
    installment_count: z
      .number()
      .int()
      .openapi({ description: "The offer's installments, or within its min/max range", example: 12 }),
  })
  .strict()
  .openapi('CreateSimulationRequest');

export const SimulationSchema = z
  .object({
    id: z.string().openapi({ example: 'sim_3f2a0c1d9b8e4f6a7c5d2e1b0a9f8e7d' }),
    credit_offer_id: z.string(),
    requested_amount: Money.openapi({ example: '10000.00' }),
    amount: Money.openapi({ description: 'Net amount the customer receives', example: '9794.63' }),
    interest_amount: Money.openapi({ example: '1347.20' }),
    fees_amount: Money.openapi({ example: '0.00' }),
    iof_amount: Money.openapi({ example: '205.37' }),
    total_loan_amount: Money.openapi({ example: '11347.20' }),
    interest_percentage: z.number().openapi({ description: 'Monthly rate, percent', example: 2 }),
    cet_percentage: z.number().openapi({ description: 'CET, percent a year', example: 32.14 }),
    number_of_installments: z.number().int().openapi({ example: 12 }),
    installments_value: Money.openapi({ example: '945.60' }),
    first_due_date: IsoDateString,
    created_at: DateTime,
  })
  .openapi('Simulation');

/** Optional terms of an offer generated through the control API; the profile's tier fills the rest. */
export const GenerateOfferBody = z
  .object({
    approved_amount: PositiveMoney.optional(),
    min_amount: PositiveMoney.optional(),
    interest_rate: z.number().min(0.5).max(30).optional().openapi({
      description:
        'Percent a month, 0.5 to 30 (below that, rounding the payment to cents can make the interest negative)',
    }),
    installments: z.number().int().min(1).max(120).optional(),
    min_installments: z.number().int().min(1).max(120).optional(),
    max_installments: z.number().int().min(1).max(120).optional(),
    due_date_rule: z.enum(DUE_DATE_RULES).nullable().optional(),
    fee_percentage: z
      .number()
      .min(0)
      .max(10)
      .optional()
      .openapi({ description: 'Fee on the requested amount, percent; MEI customers only' }),
    valid_for_days: z.number().int().min(1).max(365).optional().openapi({ description: 'Default 30' }),
  })
  .strict()
  .refine(
    (b) => !(b.installments !== undefined && (b.min_installments ?? b.max_installments) !== undefined),
    {
      message: 'send either installments or min_installments/max_installments, not both',
      path: ['installments'],
    },
  )
  .refine((b) => (b.min_installments === undefined) === (b.max_installments === undefined), {
    message: 'min_installments and max_installments go together',
    path: ['min_installments'],
  })
  .openapi('GenerateCreditOfferRequest');
