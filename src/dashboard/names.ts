import type { Store } from '../store/store.js';

/**
 * What the dashboard's lists show beside an id, read from the partner's rows (the API's list
 * answers carry ids only, and a GET per row would cost a request each): customer names and the
 * overdue installments of a loan. Scoped to the partner: another partner's id reads as nothing.
 */
export function customerName(store: Store, partnerId: string, customerId: string): string | undefined {
  const customer = store.customers.get(customerId);
  return customer?.partner_id === partnerId ? customer.name || undefined : undefined;
}

/** How many of a loan's installments are overdue (a loan has at most a few dozen). */
export function overdueInstallments(store: Store, partnerId: string, loanId: string): number {
  return store.transactionIdx.byLoan
    .rows(loanId)
    .filter((tx) => tx.partner_id === partnerId && tx.status === 'overdue').length;
}
