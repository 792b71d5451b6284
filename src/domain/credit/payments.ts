import { formatMoney, toDecimal } from '../../finance/index.js';
import type { LoanRecord, TransactionRecord } from '../../store/records.js';
import { ApiError } from '../errors.js';
import { type CreditContext, clockDate } from './credit-context.js';
import { applyPayment, installmentBalance, isOpen } from './installments.js';
import { findLoan, transitionLoan } from './loans.js';

export interface PaymentInput {
  /** Positive 2-decimal string. */
  amount: string;
  /** Defaults to the oldest open installment. */
  installment_number?: number | undefined;
}

/** What a recorded payment did. */
export interface PaymentReceipt {
  loan: LoanRecord;
  transaction: TransactionRecord;
  amount: string;
  applied_to_late_charges: string;
  applied_to_installment: string;
  payment_date: string;
}

/**
 * Records a payment of one installment of an active loan (control endpoint and magic payers):
 * late charges first, then the installment; `loan.payment_received` follows, and `loan.finished`
 * when it was the last open installment.
 */
export function recordPayment(ctx: CreditContext, loanId: string, input: PaymentInput): PaymentReceipt {
  const loan = findLoan(ctx, loanId);
  if (loan.status !== 'active') {
    throw new ApiError(
      'loan_not_active',
      loan.status === 'finished'
        ? `Loan ${loan.id} is finished: every installment is paid, there is nothing left to pay.`
        : `Loan ${loan.id} is ${loan.status}; payments are recorded only for active loans (after disbursement).`,
    );
  }
  const installments = ctx.store.transactionIdx.byLoan.rows(loan.id);
  const target = pickInstallment(loan, installments, input.installment_number);
  const today = clockDate(ctx);
  const amount = toDecimal(input.amount);
  const outstanding = installmentBalance(target, today).outstanding;
  if (amount.gt(outstanding)) {
    throw new ApiError(
      'payment_exceeds_outstanding',
      `Payment ${input.amount} exceeds what installment ${target.installment_number} of loan ${loan.id} owes today: ${formatMoney(outstanding)} (amount_outstanding). Pay at most that; pay other installments with separate payments.`,
      { param: 'amount' },
    );
  }

  const applied = applyPayment(target, amount, today, ctx.clock.iso());
  const transaction = ctx.store.transactions.replace(applied.tx);
  let row = transitionLoan(
    ctx,
    loan,
    'record_payment',
    {},
    {
      transaction_id: transaction.id,
      installment_number: transaction.installment_number,
      amount_paid: formatMoney(amount),
      payment_date: today,
      applied_to_late_charges: applied.toCharges,
      applied_to_installment: applied.toInstallment,
      installment_status: transaction.status,
    },
  );
  if (ctx.store.transactionIdx.byLoan.rows(loan.id).every((tx) => !isOpen(tx))) {
    row = transitionLoan(ctx, row, 'finish');
  }
  return {
    loan: row,
    transaction,
    amount: formatMoney(amount),
    applied_to_late_charges: applied.toCharges,
    applied_to_installment: applied.toInstallment,
    payment_date: today,
  };
}

function pickInstallment(
  loan: LoanRecord,
  installments: readonly TransactionRecord[],
  number: number | undefined,
): TransactionRecord {
  if (number === undefined) {
    const oldest = installments.find(isOpen);
    if (!oldest) throw new Error(`active loan ${loan.id} has no open installment`);
    return oldest;
  }
  const tx = installments.find((t) => t.installment_number === number);
  if (!tx) {
    throw new ApiError(
      'installment_not_found',
      `Loan ${loan.id} has installments 1 to ${loan.installments}; there is no installment ${number}.`,
      { param: 'installment_number' },
    );
  }
  if (!isOpen(tx)) {
    throw new ApiError(
      'installment_already_paid',
      `Installment ${number} of loan ${loan.id} was paid at ${tx.paid_at}. Omit installment_number to pay the oldest open installment.`,
      { param: 'installment_number' },
    );
  }
  return tx;
}
