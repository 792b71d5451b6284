import { ApiError } from '../domain/errors.js';
import type { StorageUnavailableError } from '../store/storage-health.js';

/**
 * The spec's "Status codes by endpoint" table lists the only statuses these operations answer;
 * neither 413 nor 415 is among them. Refusals of the body as sent (too large, wrong Content-Type)
 * are decided in two places — the global body limit and the route validator — and both ask here
 * for the table's status: 400 for a malformed request, 422 for an upload the rules refuse (and for
 * biometrics, whose row has no 400). Endpoints outside the table keep 413 and 415.
 */
const TABLE_WRITES: { path: RegExp; tooLarge: 'body_too_large' | 'file_too_large' | 'request_too_large' }[] =
  [
    { path: /^\/v3\/customers\/?$/, tooLarge: 'body_too_large' },
    { path: /^\/v3\/customers\/[^/]+\/documents\/?$/, tooLarge: 'file_too_large' },
    { path: /^\/v3\/customers\/[^/]+\/biometrics\/?$/, tooLarge: 'request_too_large' },
    { path: /^\/v3\/credit-offers\/[^/]+\/simulations\/?$/, tooLarge: 'body_too_large' },
  ];

/** The table's reads (its writes are TABLE_WRITES). */
const TABLE_READS = [
  /^\/v3\/customers\/[^/]+\/?$/,
  /^\/v3\/credit-offers\/?$/,
  /^\/v3\/credit-offers\/[^/]+\/?$/,
];

function tableRow(method: string, path: string) {
  return method === 'POST' ? TABLE_WRITES.find((row) => row.path.test(path)) : undefined;
}

/** Whether an operation is a row of the spec's table, whose only server error is 500. */
function inTable(method: string, path: string): boolean {
  if (method === 'GET' || method === 'HEAD') return TABLE_READS.some((read) => read.test(path));
  return tableRow(method, path) !== undefined;
}

/**
 * The store cannot write: `storage_unavailable` with `Retry-After`, as 500 on the operations of
 * the table (their only 5xx) and 503 everywhere else (control API, other operations, dashboard).
 */
export function storageUnavailable(method: string, path: string, error: StorageUnavailableError): ApiError {
  return new ApiError('storage_unavailable', error.message, {
    status: inTable(method, path) ? 500 : 503,
    headers: { 'Retry-After': String(error.retryAfterSeconds) },
  });
}

/** A body over the sandbox's global limit, with the status the endpoint's table row allows. */
export function bodyTooLarge(method: string, path: string, limitBytes: number): ApiError {
  const code = tableRow(method, path)?.tooLarge;
  const detail = `Request bodies are limited to ${limitBytes} bytes.`;
  if (code === 'file_too_large') {
    return new ApiError('file_too_large', `${detail} Documents themselves are limited to 10 MiB.`, {
      param: 'file',
    });
  }
  return new ApiError(code ?? 'payload_too_large', detail);
}

/** A body whose Content-Type the operation does not take, with the status its table row allows. */
export function unsupportedContentType(method: string, path: string): ApiError {
  const detail =
    'This Content-Type is not accepted here: JSON bodies take application/json, document uploads multipart/form-data.';
  return tableRow(method, path)
    ? new ApiError('unsupported_content_type', detail, { param: 'Content-Type' })
    : new ApiError('unsupported_media_type', detail);
}
