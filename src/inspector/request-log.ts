import { notFound } from '../domain/errors.js';
import { invalidCursor, type Page } from '../domain/pagination.js';
import { redactQuery, redactValues } from '../lib/redact.js';
import type { RequestRecord } from '../store/request-records.js';
import type { Store } from '../store/store.js';
import { keptResponseText } from './kept-body.js';

/** How many requests each partner's log keeps unless `--request-log-size` says otherwise. */
export const DEFAULT_REQUEST_LOG_SIZE = 1000;

/**
 * Appends a request to its partner's log and drops the oldest beyond `size` (a ring per partner):
 * the log's memory and its share of the data file stay bounded however long the sandbox runs.
 * Before it is kept, the entry's query, path and header values lose their secrets and a long
 * answer is truncated (MAX_KEPT_BODY_CHARS); each check is a length test or a substring search,
 * so an ordinary request pays almost nothing. Short answers are redacted on the way out.
 * The entry is appended at the end of the event loop's turn, so the response goes out first;
 * every read of the log applies waiting entries before it answers.
 */
export function appendRequest(store: Store, entry: RequestRecord, size: number): void {
  if (entry.query !== null) entry.query = redactQuery(entry.query);
  entry.path = redactValues(entry.path);
  if (entry.idempotency_key !== null) entry.idempotency_key = redactValues(entry.idempotency_key);
  if (entry.user_agent !== null) entry.user_agent = redactValues(entry.user_agent);
  if (entry.response_text !== null) entry.response_text = keptResponseText(entry.response_text);
  store.requests.appendSoon(entry, size);
}

export interface RequestFilter {
  /** An exact status (`404`) or a class (`4xx`). */
  status?: string | undefined;
  method?: string | undefined;
  /** Keeps paths that start with this. */
  path?: string | undefined;
}

/**
 * A page of the partner's log, newest first, narrowed by the filters. The cursor is found through
 * the log's id index; a cursor that names no entry of the filtered list answers 400.
 */
export function listRequests(
  store: Store,
  partnerId: string,
  filter: RequestFilter,
  page: { limit: number; startingAfter?: string | undefined },
): Page<RequestRecord> {
  const matches = requestMatcher(filter);
  const ring = store.requests.ring(partnerId);
  let at = ring ? ring.count - 1 : -1;
  if (page.startingAfter !== undefined) {
    const cursor = store.requests.locate(page.startingAfter);
    if (!cursor || cursor.ring !== ring || !matches(cursor.ring.row(cursor.position))) {
      throw invalidCursor(page.startingAfter);
    }
    at = cursor.position - 1;
  }
  const data: RequestRecord[] = [];
  for (; ring && at >= 0; at--) {
    const row = ring.row(at);
    if (!matches(row)) continue;
    if (data.length === page.limit) return { data, has_more: true };
    data.push(row);
  }
  return { data, has_more: false };
}

/** Whether the partner's log still holds the entry `id` (without decoding it). */
export function holdsRequest(store: Store, partnerId: string, id: string): boolean {
  return store.requests.locate(id)?.ring.partnerId === partnerId;
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
