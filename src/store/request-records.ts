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
  /** Real time spent in the sandbox, milliseconds (two decimals). */
  duration_ms: number;
  idempotency_key: string | null;
  /** The response was a replay of an earlier one (`Idempotent-Replayed: true`). */
  idempotent_replayed: boolean;
  /** The problem `code` when the answer was an error. */
  error_code: string | null;
  /** A few request headers (`authorization` redacted to its scheme). */
  request_headers: Record<string, string>;
  request_body: JsonValue | null;
  response_body: JsonValue | null;
  /** Partner-clock time the request arrived. */
  created_at: string;
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
