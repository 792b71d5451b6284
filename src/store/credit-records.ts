/**
 * Record shapes of credit: offers, simulations, loans and their installments (transactions). Each
 * is a zod schema (imports and reloaded rows are checked against it) with its type derived from it.
 */
import { z } from 'zod';
import { count, idOf, instant, isoDate, money, partnerId, seq, text } from './record-rules.js';

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

/** Percent figures (rates, CET): finite, not negative, at most 1,000,000. */
const percent = z.number().min(0).max(1_000_000);
const installmentCount = count(1, 120);

/** A pre-approved credit offer; exactly one installment shape is set: `installments`, or the min/max pair. */
export const CreditOfferRecordSchema = z
  .strictObject({
    id: idOf('co_'),
    seq,
    partner_id: partnerId,
    customer_id: idOf('cust_'),
    status: z.enum(OFFER_STATUSES),
    approved_amount: money,
    min_amount: money,
    /** Percent a month. */
    interest_rate: percent,
    installments: installmentCount.nullable(),
    min_installments: installmentCount.nullable(),
    max_installments: installmentCount.nullable(),
    due_date_rule: z.enum(['same_day_next_month']).nullable(),
    /** Fee on each simulation, percent of the requested amount ("0.00" for individuals). */
    fee_percentage: z.string().regex(/^\d{1,3}(\.\d{1,40})?$/, 'must be a percentage like "1.50"'),
    /** IOF borrower class the terms were priced for. */
    borrower: z.enum(['individual', 'company', 'simples_mei']),
    /** Name of the tier the terms came from ("custom" when set by the control endpoint). */
    tier: z.string().regex(/^[a-z_]{1,40}$/, 'must be a tier name like standard'),
    /** Only this simulation may be contracted. */
    latest_simulation_id: idOf('sim_').nullable(),
    valid_until: instant,
    created_at: instant,
    updated_at: instant,
  })
  .refine(
    (o) =>
      o.installments !== null
        ? o.min_installments === null && o.max_installments === null
        : o.min_installments !== null &&
          o.max_installments !== null &&
          o.min_installments <= o.max_installments,
    {
      message: 'must set installments, or min_installments <= max_installments, not both',
      path: ['installments'],
    },
  );

/** A persisted simulation: every Simulation field plus what the contract page shows. */
export const SimulationRecordSchema = z.strictObject({
  id: idOf('sim_'),
  seq,
  partner_id: partnerId,
  credit_offer_id: idOf('co_'),
  customer_id: idOf('cust_'),
  requested_amount: money,
  amount: money,
  interest_amount: money,
  fees_amount: money,
  iof_amount: money,
  iof_flat: money,
  iof_daily: money,
  total_loan_amount: money,
  interest_percentage: percent,
  cet_percentage: percent,
  number_of_installments: installmentCount,
  installments_value: money,
  first_due_date: isoDate,
  /** Partner-clock date (São Paulo) the simulation was made on. */
  simulation_date: isoDate,
  created_at: instant,
});

export const LoanRecordSchema = z.strictObject({
  id: idOf('ln_'),
  seq,
  partner_id: partnerId,
  customer_id: idOf('cust_'),
  credit_offer_id: idOf('co_'),
  simulation_id: idOf('sim_'),
  status: z.enum(LOAN_STATUSES),
  requested_amount: money,
  net_amount: money.nullable(),
  installments: installmentCount,
  installments_value: money,
  first_due_date: isoDate,
  total_loan_amount: money,
  ccb_number: z
    .string()
    .regex(/^CCB-\d{8}-[0-9A-Z]{10}$/, 'must be a CCB number like CCB-20260302-0000000001')
    .nullable(),
  /** Authorizes the hosted signing page; set when the contract is generated. */
  signing_token: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,64}$/, 'must be a URL-safe token')
    .nullable(),
  disbursement: z
    .strictObject({
      method: z.literal('pix'),
      end_to_end_id: z.string().regex(/^E\d{8}\d{12}[A-Za-z0-9]{11}$/, 'must be a pix end-to-end id'),
      disbursed_at: instant.nullable(),
    })
    .nullable(),
  error: z.strictObject({ code: z.string().regex(/^[a-z_]{1,60}$/), message: text(1000, 1) }).nullable(),
  cancelled_at: instant.nullable(),
  created_at: instant,
  updated_at: instant,
});

/**
 * One installment of an active loan. Payments settle late charges first, then `amount_due`;
 * default interest accrues on the unpaid part of `amount_due` from `charges_since` on (read time
 * adds the days since then), and what accrued before the last payment is kept in `interest_accrued`.
 */
export const TransactionRecordSchema = z.strictObject({
  id: idOf('tx_'),
  seq,
  partner_id: partnerId,
  loan_id: idOf('ln_'),
  installment_number: installmentCount,
  /** The contractual due date (IOF, CET, days overdue and late charges count from it). */
  due_date: isoDate,
  /**
   * The first business day on or after `due_date`: paying until then is on time. Absent in data
   * files written before the banking calendar existed, where it reads as `due_date`.
   */
  payable_until: isoDate.optional(),
  amount_due: money,
  /** Paid towards `amount_due`. */
  principal_paid: money,
  /** Paid towards late charges. */
  charges_paid: money,
  /** The 2 % fine, fixed when the installment became overdue. */
  fine: money,
  interest_accrued: money,
  /** Date from which default interest accrues on the unpaid part (null until overdue). */
  charges_since: isoDate.nullable(),
  status: z.enum(TRANSACTION_STATUSES),
  paid_at: instant.nullable(),
  created_at: instant,
  updated_at: instant,
});

export type CreditOfferRecord = z.infer<typeof CreditOfferRecordSchema>;
export type CreditOfferStatus = (typeof OFFER_STATUSES)[number];
export type SimulationRecord = z.infer<typeof SimulationRecordSchema>;
export type LoanRecord = z.infer<typeof LoanRecordSchema>;
export type LoanStatus = (typeof LOAN_STATUSES)[number];
export type TransactionRecord = z.infer<typeof TransactionRecordSchema>;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
