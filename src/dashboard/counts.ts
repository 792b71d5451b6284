import { LoanStatus as LoanStatusSchema } from '../api/schemas/loans.js';
import type { CreditOfferStatus, CustomerStatus, LoanStatus, TransactionStatus } from '../store/records.js';
import type { Store } from '../store/store.js';

export const CUSTOMER_STATUSES: readonly CustomerStatus[] = ['pending_kyc', 'under_review', 'active'];
export const OFFER_STATUSES: readonly CreditOfferStatus[] = ['available', 'accepted', 'expired'];
/** The loan states in lifecycle order, from the API's own schema (one list for both). */
export const LOAN_STATUSES: readonly LoanStatus[] = LoanStatusSchema.options;
/** Installment states, what QA looks for first: overdue, then what is still owed, then paid. */
export const INSTALLMENT_STATUSES: readonly TransactionStatus[] = [
  'overdue',
  'partially_paid',
  'pending',
  'paid',
];

export interface StatusCounts {
  customers: Record<CustomerStatus, number>;
  offers: Record<CreditOfferStatus, number>;
  loans: Record<LoanStatus, number>;
  installments: Record<TransactionStatus, number>;
}

/**
 * How many of the partner's customers, offers and loans are in each status. The API has no count
 * endpoint, and paging 10,000 customers to count them would take seconds; the per-status indexes
 * know their sizes, so this is a read of a dozen list lengths, scoped to the partner.
 */
export function statusCounts(store: Store, partnerId: string): StatusCounts {
  const count = <S extends string>(
    index: { rows(key: string): readonly unknown[] },
    statuses: readonly S[],
  ) =>
    Object.fromEntries(statuses.map((s) => [s, index.rows(`${partnerId}|${s}`).length])) as Record<S, number>;
  return {
    customers: count(store.customerIdx.sorted.created_at.byStatus, CUSTOMER_STATUSES),
    offers: count(store.creditOfferIdx.byStatus, OFFER_STATUSES),
    loans: count(store.loanIdx.byStatus, LOAN_STATUSES),
    installments: Object.fromEntries(
      INSTALLMENT_STATUSES.map((s) => [s, store.transactionIdx.byStatus.count(`${partnerId}|${s}`)]),
    ) as Record<TransactionStatus, number>,
  };
}
