/** Error codes of generic HTTP: malformed requests, unknown routes, limits, idempotency and server failures. */
import type { ErrorCatalogEntry } from './error-catalog-entry.js';

export const HTTP_ERRORS = {
  malformed_json: {
    status: 400,
    title: 'Malformed JSON body',
    help: 'The body could not be parsed as JSON. Send a valid JSON document with `Content-Type: application/json`.',
  },
  validation_failed: {
    status: 400,
    title: 'Request validation failed',
    help: 'A field or parameter is missing, has the wrong type, or is not one of the allowed values. `errors[]` lists each problem with its `param`.',
  },
  unsupported_charset: {
    status: 400,
    title: 'Unsupported charset',
    help: 'Request bodies are read as UTF-8 only. Send `Content-Type: application/json` (or `; charset=utf-8`) and encode the body as UTF-8.',
  },
  json_too_deep: {
    status: 400,
    title: 'JSON nested too deeply',
    help: 'The JSON body nests arrays and objects deeper than the sandbox reads (64 levels). No endpoint needs more than a few.',
  },
  request_timeout: {
    status: 400,
    title: 'Request not received in time',
    help: "The whole request must arrive in time: its headers within `--headers-timeout` (5 s), headers and body within `--request-timeout` (10 s). A body sent more slowly, or shorter than its `Content-Length`, is answered this and the connection is closed. Send the whole body at once, with its real length. (HTTP would say 408; the spec's status tables have no 408, so 400 — or 422 where the endpoint's table has no 400.)",
  },
  invalid_cursor: {
    status: 400,
    title: 'Invalid pagination cursor',
    help: '`starting_after` must be the id of an item of the same list (same filters). Pass the `id` of the last item of the previous page.',
  },
  unsupported_content_type: {
    status: 400,
    title: 'Content-Type not accepted',
    help: "The operation takes another body format: JSON bodies need `Content-Type: application/json`, document uploads `multipart/form-data`. (Operations of the spec's status table answer 400; others 415 `unsupported_media_type`.)",
  },
  body_too_large: {
    status: 400,
    title: 'Request body too large',
    help: "The request body is over the 16 MiB the sandbox reads. (Operations of the spec's status table answer 400; others 413 `payload_too_large`.)",
  },
  resource_not_found: {
    status: 404,
    title: 'Resource not found',
    help: 'No resource with that id exists for the authenticated partner. Ids of other partners are invisible and answer 404 too.',
  },
  route_not_found: {
    status: 404,
    title: 'Route not found',
    help: 'No endpoint answers at this path. The OpenAPI document at `/v3/openapi.json` lists every endpoint.',
  },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed',
    help: 'The path exists but not with this HTTP method. The `Allow` header lists the methods it accepts.',
  },
  payload_too_large: {
    status: 413,
    title: 'Payload too large',
    help: 'The request body is larger than the sandbox accepts for this endpoint.',
  },
  unsupported_media_type: {
    status: 415,
    title: 'Unsupported media type',
    help: "The request body's content type is not accepted by this endpoint.",
  },
  request_too_large: {
    status: 422,
    title: 'Request too large',
    help: 'This operation takes no body, and the one sent is over the 16 MiB the sandbox reads. Send the request without a body.',
  },
  idempotency_key_reused: {
    status: 422,
    title: 'Idempotency key used for another operation',
    help: 'An `Idempotency-Key` belongs to the operation (method and path) it was first sent with, for 24 hours of the partner clock. Use a fresh key for each new operation; the detail names the operation the key was first used on.',
  },
  rate_limited: {
    status: 429,
    title: 'Too many requests',
    help: "The partner sent more requests per second than the sandbox's rate limit allows. Wait `Retry-After` seconds, or start the sandbox with a higher `--rate-limit` (0 disables it).",
  },
  too_many_connections: {
    status: 429,
    title: 'Too many connections from this address',
    help: 'A hosted sandbox (`--hosted`) limits the open connections of one client address (`--max-connections-per-client`, default 32). Close idle connections or reuse them (keep-alive) instead of opening new ones.',
  },
  instance_unavailable: {
    status: 503,
    title: 'Sandbox instance unavailable',
    help: 'Shared mode: the instance that owns this partner could not be reached and its lease has not expired yet, or ownership is moving. Nothing was applied; retry after `Retry-After` seconds.',
  },
  write_failed: {
    status: 503,
    title: 'Change could not be saved',
    help: 'The database refused to store this change. It was rolled back (the partner is reloaded from what was saved), so nothing of the request was applied; retry. Other partners are not affected.',
  },
  storage_unavailable: {
    status: 503,
    title: 'Storage unavailable',
    help: "The sandbox cannot save changes right now (its disk is full or failing, or shared mode's PostgreSQL cannot be reached). Nothing of the request was applied; retry after `Retry-After` seconds (a POST with the same `Idempotency-Key` is safe). `GET /healthz` answers 503 and names the reason until writes work again. Operations of the spec's status table answer it with status 500, its only server error; all others with 503.",
  },
  bad_gateway: {
    status: 502,
    title: 'Bad gateway',
    help: 'An upstream service answered badly or not at all. The request may or may not have been applied: retry a POST with the same `Idempotency-Key`, so it is applied at most once.',
  },
  service_unavailable: {
    status: 503,
    title: 'Service unavailable',
    help: 'The service is temporarily unable to handle the request; nothing was applied. Retry after `Retry-After` seconds when present, with backoff otherwise.',
  },
  gateway_timeout: {
    status: 504,
    title: 'Gateway timeout',
    help: 'An upstream service did not answer in time. The request may or may not have been applied: retry a POST with the same `Idempotency-Key`, so it is applied at most once.',
  },
  internal_error: {
    status: 500,
    title: 'Internal server error',
    help: 'The sandbox failed unexpectedly. The request was not applied partially; it is safe to retry. Please report it with the request that caused it.',
  },
} as const satisfies Record<string, ErrorCatalogEntry>;
