import { z } from '@hono/zod-openapi';
import { ERROR_CATALOG } from '../../domain/errors.js';

export const ProblemSchema = z
  .object({
    type: z.string().url().openapi({ example: 'http://localhost:8080/problems/validation_failed' }),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    instance: z.string().optional(),
    code: z.enum(Object.keys(ERROR_CATALOG) as [keyof typeof ERROR_CATALOG]).optional(),
    param: z.string().optional(),
    errors: z
      .array(z.object({ param: z.string(), detail: z.string(), code: z.string().optional() }))
      .optional(),
  })
  .openapi('Problem');

const STATUS_TEXT: Record<number, string> = {
  400: 'Malformed request (see errors[])',
  401: 'Missing, invalid or expired credentials',
  404: 'Not found for this partner',
  409: 'Conflicts with the current state',
  413: 'Payload too large',
  422: 'Refused by a business rule',
  429: 'Rate limit exceeded (see Retry-After)',
  500: 'Unexpected error',
  507: 'The instance has no room left to keep it',
};

/** OpenAPI response entries for the given error statuses, all rendered as problem+json. */
export function problemResponses<S extends number>(...statuses: S[]) {
  const out = {} as Record<
    S,
    { description: string; content: { 'application/problem+json': { schema: typeof ProblemSchema } } }
  >;
  for (const status of statuses) {
    out[status] = {
      description: STATUS_TEXT[status] ?? 'Error',
      content: { 'application/problem+json': { schema: ProblemSchema } },
    };
  }
  return out;
}

/** Errors every authenticated endpoint can answer. */
export const COMMON_ERRORS = [401, 429, 500] as const;

const DECIMAL_DIGITS = /^[0-9]{1,15}$/;

/**
 * An integer query parameter, as the spec types them: written in decimal digits (a leading zero is
 * still ten for `010`). `1e1`, `10.0`, `+5`, ` 5` and `0x10` are not integers as written and
 * answer 400; the document shows `type: integer`.
 */
export function queryInteger(min: number, max: number) {
  return z.preprocess(
    (value) => (typeof value === 'string' && DECIMAL_DIGITS.test(value) ? Number(value) : value),
    z
      .number({ error: `must be an integer from ${min} to ${max}, in decimal digits` })
      .int()
      .min(min)
      .max(max),
  );
}

/** `limit` and `starting_after`, as every list endpoint accepts them. */
export const PageQuery = z.object({
  limit: queryInteger(1, 100)
    .default(25)
    .openapi({ param: { name: 'limit', in: 'query' }, description: 'Page size, 1..100', example: 25 }),
  starting_after: z
    .string()
    .min(1)
    .optional()
    .openapi({
      param: { name: 'starting_after', in: 'query' },
      description: 'Id of the last item of the previous page',
    }),
});

export const OrderQuery = z.object({
  order: z
    .enum(['asc', 'desc'])
    .default('desc')
    .openapi({ param: { name: 'order', in: 'query' } }),
});

/** The standard list envelope `{data, has_more}`. */
export function listOf<T extends z.ZodTypeAny>(item: T, name: string) {
  return z.object({ data: z.array(item), has_more: z.boolean() }).openapi(name);
}

export function json<T extends z.ZodTypeAny>(schema: T, description: string) {
  return { description, content: { 'application/json': { schema } } };
}

export const IdempotencyHeader = z.object({
  'Idempotency-Key': z
    .string()
    .min(1)
    .max(255)
    .optional()
    .openapi({
      param: { name: 'Idempotency-Key', in: 'header' },
      description: 'Replays the first response for 24 hours of the partner clock',
    }),
});

export const DateTime = z.string().datetime().openapi({ example: '2026-03-01T12:00:00.000Z' });
