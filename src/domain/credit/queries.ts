import type { DomainContext } from '../../engine/context.js';
import type { SortedIndex } from '../../store/indexes.js';
import type { CreditOfferRecord, LoanRecord, TransactionRecord } from '../../store/records.js';
import { type Page, paginate } from '../pagination.js';
import { findCustomer } from './customers.js';
import { findLoan } from './loans.js';

type ListContext = Pick<DomainContext, 'store' | 'partnerId'>;

export interface ListFilter<S extends string> {
  customer_id?: string | undefined;
  status?: S | undefined;
}

export interface PageInput {
  limit: number;
  starting_after?: string | undefined;
}

interface PartnerLists<T> {
  all: SortedIndex<T>;
  byStatus: SortedIndex<T>;
  byCustomer: SortedIndex<T>;
}

/**
 * A newest-first page of offers or loans. The narrowest index serves it: the customer's list
 * (a status filter on it is applied while reading: a customer has few rows), else the status list,
 * else the partner's list. A customer_id of no customer of this partner answers 404.
 */
function listNewestFirst<T extends { id: string; partner_id: string; customer_id: string; status: string }>(
  ctx: ListContext,
  lists: PartnerLists<T>,
  get: (id: string) => T | undefined,
  filter: ListFilter<string>,
  page: PageInput,
): Page<T> {
  const request = { limit: page.limit, order: 'desc' as const, startingAfter: page.starting_after };
  const lookup = (id: string) => {
    const row = get(id);
    return row && row.partner_id === ctx.partnerId ? row : undefined;
  };
  if (filter.customer_id !== undefined) {
    findCustomer(ctx, filter.customer_id, 'customer_id');
    const status = filter.status;
    return paginate(
      lists.byCustomer,
      `${ctx.partnerId}|${filter.customer_id}`,
      request,
      lookup,
      status === undefined ? undefined : (row) => row.status === status,
    );
  }
  if (filter.status !== undefined) {
    return paginate(lists.byStatus, `${ctx.partnerId}|${filter.status}`, request, lookup);
  }
  return paginate(lists.all, ctx.partnerId, request, lookup);
}

export function listOffers(
  ctx: ListContext,
  filter: ListFilter<CreditOfferRecord['status']>,
  page: PageInput,
): Page<CreditOfferRecord> {
  return listNewestFirst(ctx, ctx.store.creditOfferIdx, (id) => ctx.store.creditOffers.get(id), filter, page);
}

export function listLoans(
  ctx: ListContext,
  filter: ListFilter<LoanRecord['status']>,
  page: PageInput,
): Page<LoanRecord> {
  return listNewestFirst(ctx, ctx.store.loanIdx, (id) => ctx.store.loans.get(id), filter, page);
}

/** A loan's installments by installment number (404 for a loan of another partner). */
export function listTransactions(ctx: ListContext, loanId: string, page: PageInput): Page<TransactionRecord> {
  const loan = findLoan(ctx, loanId);
  return paginate(
    ctx.store.transactionIdx.byLoan,
    loan.id,
    { limit: page.limit, order: 'asc', startingAfter: page.starting_after },
    (id) => {
      const row = ctx.store.transactions.get(id);
      return row && row.loan_id === loan.id ? row : undefined;
    },
  );
}
