import { IDEMPOTENT_POSTS } from '../../http/pipeline/idempotency-step.js';
import { SPEC_STATUS_TABLE } from '../../http/spec-status-table.js';

type Json = Record<string, unknown>;

/**
 * The operations of the spec's "Status codes by endpoint" table: they answer exactly the statuses
 * the table lists (and their success), so nothing is added to them here.
 */
const SPEC_TABLE = new Set(SPEC_STATUS_TABLE.map((row) => `${row.method.toLowerCase()} ${row.path}`));

/** `/customers/:customer_id/documents` → `/customers/{customer_id}/documents`. */
const IDEMPOTENT = new Set([...IDEMPOTENT_POSTS].map((path) => `post ${path}`));

/** Operations whose 201 names the new resource in `Location`. */
const LOCATION = new Set(['post /customers', 'post /customers/{customer_id}/documents', 'post /loans']);

/** Every response header the server sends, declared once and referenced from each response. */
export const RESPONSE_HEADERS: Record<string, Json> = {
  RequestId: {
    description: 'The id of this request (`req_` + 32 hex); look it up in the request inspector',
    schema: { type: 'string', pattern: '^req_[0-9a-f]{32}$' },
    example: 'req_3f2a0c1d9b8e4f6a7c5d2e1b0a9f8e7d',
  },
  RateLimitLimit: {
    description: 'Requests per second allowed to the partner (absent when the limit is off)',
    schema: { type: 'integer', minimum: 0 },
    example: 100,
  },
  RateLimitRemaining: {
    description: 'Requests left in the current second',
    schema: { type: 'integer', minimum: 0 },
    example: 99,
  },
  RateLimitReset: {
    description: 'Seconds until the bucket is full again',
    schema: { type: 'integer', minimum: 0 },
    example: 1,
  },
  RetryAfter: {
    description: 'Seconds to wait before retrying',
    schema: { type: 'integer', minimum: 0 },
    example: 1,
  },
  IdempotentReplayed: {
    description:
      '`true` when this is the cached answer to an earlier request with the same `Idempotency-Key`',
    schema: { type: 'string', enum: ['true'] },
    example: 'true',
  },
  Location: {
    description: 'Path of the created resource',
    required: true,
    schema: { type: 'string' },
    example: '/v3/customers/cust_3f2a0c1d9b8e4f6a7c5d2e1b0a9f8e7d',
  },
  CacheControl: {
    description: 'Tokens are never cached',
    schema: { type: 'string', enum: ['no-store'] },
    example: 'no-store',
  },
};

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

/**
 * Declares what the HTTP layer adds to an operation beyond its route: statuses the middleware
 * answers (400 for a query, body or Idempotency-Key refused before validation, 413/415 for a body
 * the operation cannot read, 422 for a key reused on another operation, 503 when the store cannot
 * write or, in shared mode, the owner is unreachable) and the headers every answer carries.
 * Operations of the spec's status table keep exactly its statuses (`storage_unavailable` is their 500).
 */
export function declareServerBehaviour(operation: Json, method: string, path: string): void {
  const key = `${method} ${path}`;
  const responses = (operation.responses ?? {}) as Record<string, Json>;
  const write = method !== 'get';
  if (!SPEC_TABLE.has(key)) {
    // Any operation: a NUL in the query is refused (400) before the operation runs.
    responses['400'] ??= problem('Malformed request (see errors[])');
    if (write) responses['413'] ??= problem('Request body over 16 MiB');
    if (operation.requestBody) responses['415'] ??= problem('Content-Type not accepted by this operation');
    if (IDEMPOTENT.has(key)) responses['422'] ??= problem('Idempotency-Key first used on another operation');
    responses['503'] ??= problem(
      'The store cannot save changes right now (`storage_unavailable`: disk full or failing, PostgreSQL unreachable; nothing was applied), or, in shared mode, the instance owning this partner is unreachable (`instance_unavailable`). Retry after Retry-After seconds.',
    );
  } else if (responses['500']) {
    // The table's only server error: `storage_unavailable` is answered with it here.
    responses['500'] = problem(
      'Unexpected error, or the store cannot save changes right now (`storage_unavailable`, with Retry-After: disk full or failing, PostgreSQL unreachable; nothing was applied)',
    );
  }
  for (const [status, response] of Object.entries(responses)) {
    const headers = (response.headers ?? {}) as Json;
    headers['Request-Id'] ??= ref('RequestId');
    if (status !== '401') {
      headers['RateLimit-Limit'] ??= ref('RateLimitLimit');
      headers['RateLimit-Remaining'] ??= ref('RateLimitRemaining');
      headers['RateLimit-Reset'] ??= ref('RateLimitReset');
    }
    if (status === '429' || status === '503' || (status === '500' && SPEC_TABLE.has(key))) {
      headers['Retry-After'] ??= ref('RetryAfter');
    }
    if (IDEMPOTENT.has(key) && !['401', '429'].includes(status) && !status.startsWith('5')) {
      headers['Idempotent-Replayed'] ??= ref('IdempotentReplayed');
    }
    if (status === '201' && LOCATION.has(key)) headers.Location = ref('Location');
    if (status === '200' && key === 'post /auth/token') headers['Cache-Control'] ??= ref('CacheControl');
    response.headers = headers;
  }
  operation.responses = responses;
}
