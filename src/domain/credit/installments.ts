import type { Decimal } from 'decimal.js';
import {
  daysBetween,
  FinanceDecimal,
  formatMoney,
  type IsoDate,
  type LateCharges,
  lateCharges,
  toDecimal,
} from '../../finance/index.js';
import { keyedViewText } from '../../lib/view-text.js';
import type { TransactionRecord, TransactionStatus } from '../../store/records.js';

/**
 * The installment ledger, as pure functions over a transaction row and a date. Rules:
 * - an installment is `pending` until paid or due; a payment before it is overdue goes to
 *   `amount_due` (`partially_paid` until it is covered, then `paid`);
 * - a due date on a weekend or banking holiday is payable until the next business day
 *   (`payable_until`, Lei 7.089/1983) without charges;
 * - the day after `payable_until` an open installment becomes `overdue`: a 2 % fine on the unpaid
 *   part of `amount_due` is fixed then, and default interest (1 % a month pro rata die) accrues on
 *   that unpaid part for every day since the contractual due date;
 * - a payment on an overdue installment settles the late charges accrued up to the payment date
 *   first, then `amount_due`; it is `paid` once nothing is left.
 */

/** What the API shows of an installment at a given date. */
export interface InstallmentView {
  id: string;
  loan_id: string;
  type: 'installment';
  installment_number: number;
  due_date: string;
  payable_until: string;
  amount_due: string;
  amount_paid: string;
  amount_outstanding: string;
  status: TransactionStatus;
  days_overdue: number;
  late_charges: LateCharges;
  paid_at: string | null;
  created_at: string;
  updated_at: string;
}

/** Late charges and balances of an installment as of `today`. */
export interface InstallmentBalance {
  daysOverdue: number;
  /** The unpaid part of amount_due. */
  openPrincipal: Decimal;
  /** Fine and interest incurred up to today (paid or not). */
  charges: LateCharges;
  /** Late charges incurred and not yet paid. */
  chargesOwed: Decimal;
  /** Everything needed to settle the installment today. */
  outstanding: Decimal;
  amountPaid: Decimal;
}

export function installmentBalance(tx: TransactionRecord, today: IsoDate): InstallmentBalance {
  const openPrincipal = toDecimal(tx.amount_due).minus(tx.principal_paid);
  const accruing = tx.status === 'overdue' && tx.charges_since !== null;
  const days = accruing ? Math.max(0, daysBetween(tx.charges_since as string, today)) : 0;
  const interest = toDecimal(tx.interest_accrued).plus(lateCharges(openPrincipal, days).interest);
  const fine = toDecimal(tx.fine);
  const chargesOwed = fine.plus(interest).minus(tx.charges_paid);
  return {
    daysOverdue: tx.status === 'overdue' ? Math.max(0, daysBetween(tx.due_date, today)) : 0,
    openPrincipal,
    charges: {
      fine: formatMoney(fine),
      interest: formatMoney(interest),
      total: formatMoney(fine.plus(interest)),
    },
    chargesOwed,
    outstanding: openPrincipal.plus(chargesOwed),
    amountPaid: toDecimal(tx.principal_paid).plus(tx.charges_paid),
  };
}

export function installmentView(tx: TransactionRecord, today: IsoDate): InstallmentView {
  const balance = installmentBalance(tx, today);
  return {
    id: tx.id,
    loan_id: tx.loan_id,
    type: 'installment',
    installment_number: tx.installment_number,
    due_date: tx.due_date,
    payable_until: tx.payable_until ?? tx.due_date,
    amount_due: tx.amount_due,
    amount_paid: formatMoney(balance.amountPaid),
    amount_outstanding: formatMoney(balance.outstanding),
    status: tx.status,
    days_overdue: balance.daysOverdue,
    late_charges: balance.charges,
    paid_at: tx.paid_at,
    created_at: tx.created_at,
    updated_at: tx.updated_at,
  };
}

/**
 * The installment's JSON on a date: `days_overdue` and `late_charges` are computed once per row
 * version and clock date, not per read.
 */
export const installmentJson = keyedViewText(installmentView);

/** Whether the installment still takes payments. */
export function isOpen(tx: TransactionRecord): boolean {
  return tx.status !== 'paid';
}

/**
 * The installment once it is past due (run the day after `payable_until`): open installments become
 * `overdue` with the fine fixed on their unpaid part; paid ones are returned unchanged.
 */
export function markOverdue(tx: TransactionRecord, nowIso: string): TransactionRecord {
  if (tx.status === 'paid' || tx.status === 'overdue') return tx;
  const open = toDecimal(tx.amount_due).minus(tx.principal_paid);
  return {
    ...tx,
    status: 'overdue',
    // The fine is charged once; lateCharges gives it for any positive number of days.
    fine: lateCharges(open, 1).fine,
    charges_since: tx.due_date,
    updated_at: nowIso,
  };
}

/** How one payment was split. */
export interface AppliedPayment {
  tx: TransactionRecord;
  toCharges: string;
  toInstallment: string;
}

/**
 * Applies `amount` (positive, at most the outstanding balance — the caller checks) on `today`:
 * interest accrued so far is booked, late charges are settled first, then amount_due.
 */
export function applyPayment(
  tx: TransactionRecord,
  amount: Decimal,
  today: IsoDate,
  nowIso: string,
): AppliedPayment {
  const balance = installmentBalance(tx, today);
  const toCharges = FinanceDecimal.min(amount, balance.chargesOwed);
  const toInstallment = amount.minus(toCharges);
  const principalPaid = toDecimal(tx.principal_paid).plus(toInstallment);
  const settled = balance.outstanding.minus(amount).lte(0);
  const status: TransactionStatus = settled
    ? 'paid'
    : tx.status === 'overdue'
      ? 'overdue'
      : principalPaid.gt(0)
        ? 'partially_paid'
        : tx.status;
  const overdue = tx.status === 'overdue';
  return {
    tx: {
      ...tx,
      principal_paid: formatMoney(principalPaid),
      charges_paid: formatMoney(toDecimal(tx.charges_paid).plus(toCharges)),
      // Interest accrued up to today is booked so the new (smaller) unpaid part accrues from here.
      interest_accrued: overdue ? balance.charges.interest : tx.interest_accrued,
      charges_since: overdue ? today : tx.charges_since,
      status,
      paid_at: settled ? nowIso : tx.paid_at,
      updated_at: nowIso,
    },
    toCharges: formatMoney(toCharges),
    toInstallment: formatMoney(toInstallment),
  };
}
