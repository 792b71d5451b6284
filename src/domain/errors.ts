/**
 * The closed set of error codes the sandbox answers with, and the one table that maps each code to
 * its HTTP status and title. Domain code throws `ApiError`; the HTTP layer renders it as
 * application/problem+json. Adding a code means adding a row here, nowhere else.
 */
export const ERROR_CATALOG = {
  // 400: the request is malformed (shape, type, missing field, unknown enum value, bad query).
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
  invalid_cursor: {
    status: 400,
    title: 'Invalid pagination cursor',
    help: '`starting_after` must be the id of an item of the same list (same filters). Pass the `id` of the last item of the previous page.',
  },
  unsupported_grant_type: {
    status: 400,
    title: 'Unsupported grant type',
    help: 'The token endpoint only supports `grant_type=client_credentials` (or no body at all).',
  },
  // 401: who is calling could not be established.
  authentication_required: {
    status: 401,
    title: 'Authentication required',
    help: 'Send `Authorization: Bearer <access_token>`. Obtain a token from `POST /v3/auth/token` with HTTP Basic `client_id:client_secret`.',
  },
  invalid_token: {
    status: 401,
    title: 'Invalid access token',
    help: 'The bearer token is not one this sandbox issued (bad format, bad signature or unsupported algorithm). Request a new token from `POST /v3/auth/token`.',
  },
  token_expired: {
    status: 401,
    title: 'Access token expired',
    help: 'Access tokens live 3600 seconds of the partner clock. Advancing the clock past `exp` expires them too: request a new token.',
  },
  invalid_client: {
    status: 401,
    title: 'Invalid client credentials',
    help: 'The HTTP Basic credentials are unknown, malformed or revoked. Check `client_id` and `client_secret`, or create a new credential.',
  },
  // 404 / 405: nothing answers at that address.
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
  // 413 / 415: the body cannot be read as sent.
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
  // 422: well-formed, refused by a rule.
  clock_backwards: {
    status: 422,
    title: 'Clock cannot move backwards',
    help: 'A partner clock only moves forward. Use a later `to` date-time or a positive `by` duration; reset the partner to start over.',
  },
  clock_jump_too_large: {
    status: 422,
    title: 'Clock jump too large',
    help: 'One advance moves a partner clock at most 3660 days (10 years), so a typo cannot make the sandbox run millions of jobs. Advance in several steps if you really need more.',
  },
  // 429 / 500.
  rate_limited: {
    status: 429,
    title: 'Too many requests',
    help: "The partner sent more requests per second than the sandbox's rate limit allows. Wait `Retry-After` seconds, or start the sandbox with a higher `--rate-limit` (0 disables it).",
  },
  internal_error: {
    status: 500,
    title: 'Internal server error',
    help: 'The sandbox failed unexpectedly. The request was not applied partially; it is safe to retry. Please report it with the request that caused it.',
  },
} as const satisfies Record<string, { status: number; title: string; help: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

/** One field-level problem inside `errors[]`. */
export interface FieldError {
  param: string;
  detail: string;
  code?: string;
}

export interface ApiErrorOptions {
  param?: string;
  errors?: FieldError[];
  /** Extra response headers (e.g. Retry-After on 429). */
  headers?: Record<string, string>;
}

/** A refusal that the HTTP layer renders as a problem document. `detail` says what failed and how to fix it. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly title: string;
  readonly param: string | undefined;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(code: ErrorCode, detail: string, options: ApiErrorOptions = {}) {
    super(detail);
    this.name = 'ApiError';
    this.code = code;
    this.status = ERROR_CATALOG[code].status;
    this.title = ERROR_CATALOG[code].title;
    this.param = options.param;
    this.errors = options.errors;
    this.headers = options.headers;
  }
}

/** The standard 404 for an id that does not exist for this partner (including another partner's id). */
export function notFound(resource: string, id: string): ApiError {
  return new ApiError('resource_not_found', `No ${resource} with id "${id}" exists for this partner.`);
}
