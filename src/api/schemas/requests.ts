import { z } from '@hono/zod-openapi';
import { DateTime } from './common.js';

const Body = z.unknown().openapi({
  description:
    'The JSON body (a form as an object), secrets redacted (keys `authorization`, `password`, `secret`, `*_secret`, `*token*`; values `svc_cs_…`, `svc_at_…`, `whsec_…`); null when there was none or it was not read. A body over 4,096 characters is kept as `{"truncated": true, "original_bytes": n, "text": "<its first 4,096 characters>"}`',
});

export const RequestLogEntrySchema = z
  .object({
    id: z.string().openapi({ example: 'req_3f2a0c1d9b8e4f6a7c5d2e1b0a9f8e7d' }),
    method: z.string().openapi({ example: 'POST' }),
    path: z.string().openapi({ example: '/v3/customers' }),
    query: z.string().nullable().openapi({
      description: 'Raw query string without `?`, secret parameters redacted',
      example: 'limit=10',
    }),
    status: z.number().int().openapi({ example: 201 }),
    duration_ms: z.number().openapi({ description: 'Real time spent in the sandbox', example: 1.42 }),
    idempotency_key: z.string().nullable(),
    idempotent_replayed: z.boolean(),
    error_code: z.string().nullable().openapi({ description: 'The problem `code` of an error answer' }),
    request_headers: z
      .record(z.string(), z.string())
      .openapi({ description: 'authorization (scheme only), content-type, idempotency-key, user-agent' }),
    request_body: Body,
    response_body: Body.openapi({
      description:
        'The JSON answer, secrets redacted, truncated like request_body over 4,096 characters (null for reads of the request log itself, which would quote itself)',
    }),
    created_at: DateTime.openapi({ description: 'Partner-clock time the request arrived' }),
    fault: z
      .object({
        rule_id: z.string().openapi({ example: 'flt_3f2a0c1d9b8e4f6a7c5d2e1b0a9f8e7d' }),
        action: z.record(z.string(), z.unknown()).openapi({ example: { status: 503 } }),
      })
      .nullable()
      .openapi({
        description:
          'The API-side fault rule that acted on this call (`/v3/sandbox/faults`), or null. After a reset or a timeout `status` is 0 and there is no response body; after a truncation the body is what was sent.',
      }),
  })
  .openapi('RequestLogEntry');

export const RequestLogQuery = z.object({
  status: z
    .string()
    .regex(/^([1-5][xX][xX]|[1-5][0-9]{2})$/, 'an HTTP status (404) or a class (4xx)')
    .optional()
    .openapi({ param: { name: 'status', in: 'query' }, example: '4xx' }),
  method: z
    .enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'get', 'post', 'put', 'patch', 'delete'])
    .optional()
    .openapi({ param: { name: 'method', in: 'query' }, example: 'POST' }),
  path: z
    .string()
    .min(1)
    .max(2048)
    .optional()
    .openapi({ param: { name: 'path', in: 'query' }, description: 'Path prefix', example: '/v3/loans' }),
});
