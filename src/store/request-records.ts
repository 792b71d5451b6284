import type { FaultAction, JsonValue } from './records.js';

/**
 * One API request as the request inspector shows it: what the partner sent and what it got back.
 * Request bodies and `Authorization` are redacted before they are kept; the answer is kept as
 * sent (outside the JavaScript heap, see RequestRing) and redacted whenever a row is built, so no
 * row (the API, a dump, `--data`, the database) ever carries a secret.
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
  /** The answer's JSON text, secrets redacted (kept as text, not parsed: cheaper to hold). */
  response_text: string | null;
  /** Partner-clock time the request arrived, epoch milliseconds (formatted when shown). */
  created_at_ms: number;
  /** The API-side fault rule that acted on the request (absent: none did). */
  fault?: RequestFault;
}

/** A fault rule's act on one request, as the inspector shows it. */
export interface RequestFault {
  rule_id: string;
  action: FaultAction;
}

/** How a request log is built (see RequestLogTable). */
export interface RequestLogOptions {
  /** What readers see of a stored answer (the inspector redacts secrets there). */
  showAnswer?: (text: string) => string;
  /** Runs a callback once the current turn of the event loop is over (`setImmediate`). */
  defer?: (callback: () => void) => void;
}
