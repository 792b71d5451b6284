import { SortedIndex } from './indexes.js';
import type { JsonValue } from './records.js';
import type { Table } from './table.js';

/**
 * One API request as the request inspector keeps it: what the partner sent and what it got back,
 * with secrets redacted before the row is stored (so they never reach memory dumps or `--data`).
 */
export interface RequestRecord {
  /** `req_` + 32 hex, the `Request-Id` header of the response. */
  id: string;
  seq: number;
  partner_id: string;
  method: string;
  path: string;
  /** The raw query string without `?`, or null. */
  query: string | null;
  status: number;
  /** Real time spent in the sandbox, in hundredths of a millisecond (an integer: cheap to hold). */
  duration_cms: number;
  idempotency_key: string | null;
  /** The response was a replay of an earlier one (`Idempotent-Replayed: true`). */
  idempotent_replayed: boolean;
  /** The problem `code` when the answer was an error. */
  error_code: string | null;
  /** `Authorization` reduced to its scheme (`Bearer [redacted]`), or null. */
  authorization: string | null;
  content_type: string | null;
  user_agent: string | null;
  request_body: JsonValue | null;
  /**
   * The answer's JSON text, secrets already redacted. Kept as text, not parsed: one string per
   * request is the cheapest thing to hold for a thousand requests on the hot path.
   */
  response_text: string | null;
  /** Partner-clock time the request arrived, epoch milliseconds (formatted when shown). */
  created_at_ms: number;
}

/** The partner's requests in arrival order (the ring is trimmed from the front). */
export function requestIndexes(table: Table<RequestRecord>) {
  return {
    byPartner: table.index(
      new SortedIndex<RequestRecord>(
        (r) => r.partner_id,
        (a, b) => a.seq - b.seq,
      ),
    ),
  };
}
