/** Record shapes of credit: offers, simulations, loans and their installments (transactions). */

export type CreditOfferStatus = 'available' | 'accepted' | 'expired';

/** A pre-approved credit offer; exactly one installment shape is set: `installments`, or the min/max pair. */
export interface CreditOfferRecord {
  id: string;
  seq: number;
  partner_id: string;
  customer_id: string;
  status: CreditOfferStatus;
  approved_amount: string;
  min_amount: string;
  /** Percent a month. */
  interest_rate: number;
  installments: number | null;
  min_installments: number | null;
  max_installments: number | null;
  due_date_rule: string | null;
  /** Fee on each simulation, percent of the requested amount ("0.00" for individuals). */
  fee_percentage: string;
  /** IOF borrower class the terms were priced for. */
  borrower: 'individual' | 'company' | 'simples_mei';
  /** Name of the tier the terms came from ("custom" when set by the control endpoint). */
  tier: string;
  /** Only this simulation may be contracted. */
  latest_simulation_id: string | null;
  valid_until: string;
  created_at: string;
  updated_at: string;
}

/** A persisted simulation: every Simulation field plus what the contract page shows. */
export interface SimulationRecord {
  id: string;
  seq: number;
  partner_id: string;
  credit_offer_id: string;
  customer_id: string;
  requested_amount: string;
  amount: string;
  interest_amount: string;
  fees_amount: string;
  iof_amount: string;
  iof_flat: string;
  iof_daily: string;
  total_loan_amount: string;
  interest_percentage: number;
  cet_percentage: number;
  number_of_installments: number;
  installments_value: string;
  first_due_date: string;
  /** Partner-clock date (São Paulo) the simulation was made on. */
  simulation_date: string;
  created_at: string;
}

export type LoanStatus =
  | 'processing'
  | 'contract_generated'
  | 'awaiting_signatures'
  | 'signed'
  | 'disbursing'
  | 'active'
  | 'finished'
  | 'cancelled'
  | 'error';

export interface LoanRecord {
  id: string;
  seq: number;
  partner_id: string;
  customer_id: string;
  credit_offer_id: string;
  simulation_id: string;
  status: LoanStatus;
  requested_amount: string;
  net_amount: string | null;
  installments: number;
  installments_value: string;
  first_due_date: string;
  total_loan_amount: string;
  ccb_number: string | null;
  /** Authorizes the hosted signing page; set when the contract is generated. */
  signing_token: string | null;
  disbursement: { method: 'pix'; end_to_end_id: string; disbursed_at: string | null } | null;
  error: { code: string; message: string } | null;
  cancelled_at: string | null;
  created_at: string;
  updated_at: string;
}

export type TransactionStatus = 'pending' | 'paid' | 'partially_paid' | 'overdue';

/**
 * One installment of an active loan. Payments settle late charges first, then `amount_due`;
 * default interest accrues on the unpaid part of `amount_due` from `charges_since` on (read time
 * adds the days since then), and what accrued before the last payment is kept in `interest_accrued`.
 */
export interface TransactionRecord {
  id: string;
  seq: number;
  partner_id: string;
  loan_id: string;
  installment_number: number;
  /** The contractual due date (IOF, CET, days overdue and late charges count from it). */
  due_date: string;
  /**
   * The first business day on or after `due_date`: paying until then is on time. Absent in data
   * files written before the banking calendar existed, where it reads as `due_date`.
   */
  payable_until?: string;
  amount_due: string;
  /** Paid towards `amount_due`. */
  principal_paid: string;
  /** Paid towards late charges. */
  charges_paid: string;
  /** The 2 % fine, fixed when the installment became overdue. */
  fine: string;
  interest_accrued: string;
  /** Date from which default interest accrues on the unpaid part (null until overdue). */
  charges_since: string | null;
  status: TransactionStatus;
  paid_at: string | null;
  created_at: string;
  updated_at: string;
}
