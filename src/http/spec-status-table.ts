import { ApiError } from '../domain/errors.js';
import type { StorageUnavailableError } from '../store/storage-health.js';

/** One row of the spec's "Status codes by endpoint" table (path below `/v3`, `{param}` syntax). */
export interface SpecTableRow {
  method: 'GET' | 'POST';
  path: string;
  /** The only error statuses the endpoint answers. */
  statuses: readonly number[];
  /** The code of a body over the global limit, with a status of the row. */
  tooLarge?: 'body_too_large' | 'file_too_large' | 'request_too_large';
}

/**
 * The spec's "Status codes by endpoint" table, the one source for the runtime (below) and the
 * OpenAPI document (`api/openapi/server-behaviour.ts`), which lists exactly these statuses.
 */
export const SPEC_STATUS_TABLE: readonly SpecTableRow[] = [
  {
    method: 'POST',
    path: '/customers',
    statuses: [400, 401, 409, 422, 429, 500],
    tooLarge: 'body_too_large',
  },
  { method: 'GET', path: '/customers/{customer_id}', statuses: [401, 404, 429, 500] },
  {
    method: 'POST',
    path: '/customers/{customer_id}/documents',
    statuses: [400, 401, 404, 422, 429, 500],
    tooLarge: 'file_too_large',
  },
  {
    method: 'POST',
    path: '/customers/{customer_id}/biometrics',
    statuses: [401, 404, 409, 422, 429, 500],
    tooLarge: 'request_too_large',
  },
  { method: 'GET', path: '/credit-offers', statuses: [400, 401, 404, 429, 500] },
  { method: 'GET', path: '/credit-offers/{credit_offer_id}', statuses: [401, 404, 429, 500] },
  {
    method: 'POST',
    path: '/credit-offers/{credit_offer_id}/simulations',
    statuses: [400, 401, 404, 422, 429, 500],
    tooLarge: 'body_too_large',
  },
];

// `/customers/{customer_id}` → /^\/v3\/customers\/[^/]+\/?$/ (a trailing slash is the same route).
const MATCHERS = SPEC_STATUS_TABLE.map((row) => ({
  row,
  regex: new RegExp(`^/v3${row.path.replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
}));

/** The table row of a request (`path` as sent, with `/v3`), or undefined outside the table. */
export function specTableRow(method: string, path: string): SpecTableRow | undefined {
  for (const { row, regex } of MATCHERS) if (row.method === method && regex.test(path)) return row;
  return undefined;
}

/**
 * The error as the endpoint answers it: unchanged outside the table or when the table has its
 * status; otherwise the same problem (code, detail, param) with the nearest status the row has —
 * a refusal of the request (4xx) becomes 400, else 422, else 404; a failure of the sandbox (5xx)
 * becomes 500, the table's only 5xx. E.g. a bad `Idempotency-Key` on biometrics (no 400 there)
 * answers 422 `validation_failed`; shared mode's 503 `instance_unavailable` on GET /customers/{id}
 * answers 500.
 */
export function fitToSpecTable(method: string, path: string, error: ApiError): ApiError {
  const row = specTableRow(method, path);
  if (!row || row.statuses.includes(error.status)) return error;
  const nearest = error.status >= 500 ? [500] : [400, 422, 404];
  const status = nearest.find((s) => row.statuses.includes(s));
  return status === undefined ? error : error.withStatus(status);
}

/**
 * The store cannot write: `storage_unavailable` with `Retry-After`, as 500 on the operations of
 * the table (their only 5xx) and 503 everywhere else (control API, other operations, dashboard).
 */
export function storageUnavailable(method: string, path: string, error: StorageUnavailableError): ApiError {
  const row = specTableRow(method === 'HEAD' ? 'GET' : method, path);
  return new ApiError('storage_unavailable', error.message, {
    status: row ? 500 : 503,
    headers: { 'Retry-After': String(error.retryAfterSeconds) },
  });
}

/**
 * A body over the sandbox's global limit, with a code of the status the endpoint's table row
 * allows: 400 for a malformed request, 422 for an upload the rules refuse (and for biometrics,
 * whose row has no 400). Endpoints outside the table answer 413.
 */
export function bodyTooLarge(method: string, path: string, limitBytes: number): ApiError {
  const code = specTableRow(method, path)?.tooLarge;
  const detail = `Request bodies are limited to ${limitBytes} bytes.`;
  if (code === 'file_too_large') {
    return new ApiError('file_too_large', `${detail} Documents themselves are limited to 10 MiB.`, {
      param: 'file',
    });
  }
  return new ApiError(code ?? 'payload_too_large', detail);
}

/**
 * A body whose Content-Type the operation does not take: 400 `unsupported_content_type` on the
 * table's endpoints (none lists 415; `fitToSpecTable` makes it 422 where the row has no 400),
 * 415 elsewhere.
 */
export function unsupportedContentType(method: string, path: string): ApiError {
  const detail =
    'This Content-Type is not accepted here: JSON bodies take application/json, document uploads multipart/form-data.';
  return specTableRow(method, path)
    ? new ApiError('unsupported_content_type', detail, { param: 'Content-Type' })
    : new ApiError('unsupported_media_type', detail);
}
