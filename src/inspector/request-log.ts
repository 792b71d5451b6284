import { notFound } from '../domain/errors.js';
import { type Page, paginate } from '../store/pagination.js';
import type { RequestRecord } from '../store/request-records.js';
import type { Store } from '../store/store.js';

/** How many requests each partner's log keeps unless `--request-log-size` says otherwise. */
export const DEFAULT_REQUEST_LOG_SIZE = 1000;

/**
 * Appends a request to its partner's log and drops the oldest beyond `size` (a ring per partner):
 * the log's memory and its share of the data file stay bounded however long the sandbox runs.
 */
export function appendRequest(store: Store, row: RequestRecord, size: number): void {
  // Only a deterministic id source restarted over its own data repeats an id: the newer row wins.
  if (store.requests.get(row.id)) store.requests.delete(row.id);
  store.requests.insert(row);
  const rows = store.requestIdx.byPartner.rows(row.partner_id);
  // Usually exactly one row falls out; a smaller size after a restart trims several at once.
  let excess = rows.length - size;
  while (excess-- > 0) {
    const oldest = rows[0];
    if (!oldest) break;
    store.requests.delete(oldest.id);
  }
}

export interface RequestFilter {
  /** An exact status (`404`) or a class (`4xx`). */
  status?: string | undefined;
  method?: string | undefined;
  /** Keeps paths that start with this. */
  path?: string | undefined;
}

/** A page of the partner's log, newest first, narrowed by the filters. */
export function listRequests(
  store: Store,
  partnerId: string,
  filter: RequestFilter,
  page: { limit: number; startingAfter?: string | undefined },
): Page<RequestRecord> {
  const matches = requestMatcher(filter);
  return paginate(
    store.requestIdx.byPartner,
    partnerId,
    { limit: page.limit, order: 'desc', startingAfter: page.startingAfter },
    (id) => {
      const row = store.requests.get(id);
      return row && row.partner_id === partnerId ? row : undefined;
    },
    matches,
  );
}

/** One request of the partner's log; 404 when unknown, another partner's, or already dropped. */
export function getRequest(store: Store, partnerId: string, id: string): RequestRecord {
  const row = store.requests.get(id);
  if (!row || row.partner_id !== partnerId) throw notFound('request (it may have left the log)', id);
  return row;
}

function requestMatcher(filter: RequestFilter): (row: RequestRecord) => boolean {
  const method = filter.method?.toUpperCase();
  const status = filter.status;
  const statusClass = status && /^[1-5]xx$/i.test(status) ? Number(status[0]) : undefined;
  const exactStatus = status && statusClass === undefined ? Number(status) : undefined;
  const prefix = filter.path;
  return (row) =>
    (method === undefined || row.method === method) &&
    (statusClass === undefined || Math.floor(row.status / 100) === statusClass) &&
    (exactStatus === undefined || row.status === exactStatus) &&
    (prefix === undefined || row.path.startsWith(prefix));
}
