import { normalizeCpf } from '../../finance/cpf.js';
import { CUSTOMER_ORDERS, type CustomerSort } from '../../store/customer-indexes.js';
import { SortedIndex } from '../../store/indexes.js';
import type { CustomerRecord, CustomerStatus } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { ApiError } from '../errors.js';
import { type Page, paginate, type SortOrder } from '../pagination.js';

export interface CustomerListQuery {
  sort: CustomerSort;
  order: SortOrder;
  limit: number;
  starting_after?: string | undefined;
  status?: CustomerStatus | undefined;
  /** Bare or masked. */
  cpf?: string | undefined;
  external_id?: string | undefined;
}

/**
 * One page of a partner's customers. The cpf filter reads the unique cpf index and the external_id
 * filter its group (both a handful of rows, sorted on the spot); otherwise the page comes from the
 * sorted index of the chosen order (per status when filtered), so a deep cursor costs O(log n).
 */
export function listCustomers(
  store: Store,
  partnerId: string,
  query: CustomerListQuery,
): Page<CustomerRecord> {
  const idx = store.customerIdx;
  const order = CUSTOMER_ORDERS[query.sort];
  const request = { limit: query.limit, order: query.order, startingAfter: query.starting_after };
  const lookup = (id: string) => {
    const row = store.customers.get(id);
    return row && row.partner_id === partnerId ? row : undefined;
  };
  const matches = (row: CustomerRecord) =>
    (query.status === undefined || row.status === query.status) &&
    (query.external_id === undefined || row.external_id === query.external_id);

  let candidates: readonly CustomerRecord[] | undefined;
  if (query.cpf !== undefined) {
    const cpf = normalizeCpf(query.cpf);
    if (cpf === null) {
      throw new ApiError(
        'validation_failed',
        `cpf "${query.cpf}" is not a valid CPF (11 digits, bare or masked).`,
        {
          param: 'cpf',
          errors: [{ param: 'cpf', detail: 'cpf must be a valid CPF, bare or masked' }],
        },
      );
    }
    const row = idx.byCpf.get(`${partnerId}|${cpf}`);
    candidates = row ? [row] : [];
  } else if (query.external_id !== undefined) {
    candidates = idx.byExternalId.get(`${partnerId}|${query.external_id}`);
  }
  if (candidates) {
    const small = new SortedIndex<CustomerRecord>(() => '', order);
    for (const row of candidates) if (matches(row)) small.add(row);
    return paginate(small, '', request, (id) => small.rows('').find((r) => r.id === id));
  }
  const lists = idx.sorted[query.sort];
  if (query.status !== undefined) {
    return paginate(lists.byStatus, `${partnerId}|${query.status}`, request, lookup);
  }
  return paginate(lists.all, partnerId, request, lookup);
}
