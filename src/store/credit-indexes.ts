import { byField, GroupIndex, SortedIndex } from './indexes.js';
import type { CreditOfferRecord, LoanRecord, TransactionRecord } from './records.js';
import type { Table } from './table.js';

/**
 * Sorted lists (ascending by created_at, then seq; lists read them backwards for newest first) per
 * partner, per partner+status and per partner+customer. A customer's list is short, so a status
 * filter on it is applied while reading rather than by a fourth index.
 */
interface CustomerOwnedRow {
  id: string;
  seq: number;
  partner_id: string;
  customer_id: string;
  status: string;
  created_at: string;
}

function partnerLists<T extends CustomerOwnedRow>(table: Table<T>) {
  const order = byField<T>((r) => r.created_at);
  return {
    /** Key: partner id. */
    all: table.index(new SortedIndex<T>((r) => r.partner_id, order)),
    /** Key: `${partner_id}|${status}`. */
    byStatus: table.index(new SortedIndex<T>((r) => `${r.partner_id}|${r.status}`, order)),
    /** Key: `${partner_id}|${customer_id}`. */
    byCustomer: table.index(new SortedIndex<T>((r) => `${r.partner_id}|${r.customer_id}`, order)),
  };
}

/** The indexes the credit offer queries need. */
export function creditOfferIndexes(table: Table<CreditOfferRecord>) {
  return partnerLists<CreditOfferRecord>(table);
}

/** The indexes the loan queries need. */
export function loanIndexes(table: Table<LoanRecord>) {
  return partnerLists<LoanRecord>(table);
}

/** A loan's installments by installment number (key: loan id); the partner's by status (counts). */
export function transactionIndexes(table: Table<TransactionRecord>) {
  return {
    /** Key: `${partner_id}|${status}` (the dashboard's installment counts: a size, not a scan). */
    byStatus: table.index(new GroupIndex<TransactionRecord>((r) => `${r.partner_id}|${r.status}`)),
    byLoan: table.index(
      new SortedIndex<TransactionRecord>(
        (r) => r.loan_id,
        (a, b) => a.installment_number - b.installment_number || a.seq - b.seq,
      ),
    ),
  };
}
