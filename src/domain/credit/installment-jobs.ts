import { addDays, dueDateSchedule, FinanceDecimal, formatMoney, toDecimal } from '../../finance/index.js';
import type { LoanRecord } from '../../store/records.js';
import { magicBehaviour } from '../magic-profiles.js';
import { type CreditContext, clockDate, startOfDayMs } from './credit-context.js';
import { installmentBalance, isOpen, markOverdue } from './installments.js';
import { CREDIT_JOBS } from './jobs.js';
import { recordPayment } from './payments.js';
import { DAY_MS, MAGIC_PAYMENT_HOUR, PAYS_LATE_DAYS } from './timings.js';

/**
 * Creates one `installment` transaction per installment of a loan being activated, schedules the
 * move to `overdue` the day after each one is payable until (00:00 São Paulo time), and — for the magic payer profiles —
 * the customer's payments.
 */
export function createInstallments(ctx: CreditContext, loan: LoanRecord): void {
  const now = ctx.clock.iso();
  const payer = magicBehaviour(ctx.store.customers.get(loan.customer_id)?.cpf ?? '');
  const dueDates = dueDateSchedule(loan.first_due_date, loan.installments);
  dueDates.forEach((dueDate, k) => {
    const payableUntil = ctx.calendar.payableUntil(dueDate);
    const tx = ctx.store.transactions.insert({
      id: ctx.ids('tx_'),
      seq: ctx.store.nextSeq(),
      partner_id: ctx.partnerId,
      loan_id: loan.id,
      installment_number: k + 1,
      due_date: dueDate,
      payable_until: payableUntil,
      amount_due: loan.installments_value,
      principal_paid: '0.00',
      charges_paid: '0.00',
      fine: '0.00',
      interest_accrued: '0.00',
      charges_since: null,
      status: 'pending',
      paid_at: null,
      created_at: now,
      updated_at: now,
    });
    ctx.schedule(
      CREDIT_JOBS.installmentOverdue,
      { transaction_id: tx.id },
      startOfDayMs(addDays(payableUntil, 1)),
    );
    const payOn =
      payer === 'pays_on_time' || payer === 'pays_partially'
        ? dueDate
        : payer === 'pays_late'
          ? addDays(dueDate, PAYS_LATE_DAYS)
          : undefined;
    if (payOn !== undefined) {
      ctx.schedule(
        CREDIT_JOBS.magicPayment,
        { transaction_id: tx.id },
        startOfDayMs(payOn) + (MAGIC_PAYMENT_HOUR * DAY_MS) / 24,
      );
    }
  });
}

/** Job: the day after it was payable until, an installment not fully paid becomes overdue. */
export function runInstallmentOverdue(ctx: CreditContext, transactionId: string): void {
  const tx = ctx.store.transactions.get(transactionId);
  if (!tx || !isOpen(tx)) return;
  const loan = ctx.store.loans.get(tx.loan_id);
  if (loan?.status !== 'active') return;
  ctx.store.transactions.replace(markOverdue(tx, ctx.clock.iso()));
}

/** Job: a magic payer pays an installment (in full, in full with late charges, or half). */
export function runMagicPayment(ctx: CreditContext, transactionId: string): void {
  const tx = ctx.store.transactions.get(transactionId);
  const loan = tx && ctx.store.loans.get(tx.loan_id);
  if (!tx || !loan || loan.status !== 'active' || !isOpen(tx)) return;
  const outstanding = installmentBalance(tx, clockDate(ctx)).outstanding;
  const payer = magicBehaviour(ctx.store.customers.get(loan.customer_id)?.cpf ?? '');
  const amount =
    payer === 'pays_partially'
      ? FinanceDecimal.min(outstanding, toDecimal(tx.amount_due).div(2))
      : outstanding;
  if (amount.lte(0)) return;
  recordPayment(ctx, loan.id, { amount: formatMoney(amount), installment_number: tx.installment_number });
}
