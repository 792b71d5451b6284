import { z } from '@hono/zod-openapi';
import {
  MAX_FAULT_DELAY_MS,
  MAX_FAULT_RETRY_AFTER_S,
  MAX_FAULT_TIMEOUT_MS,
  MAX_FAULT_TIMES,
} from '../../domain/faults/fault-rules.js';
import { DateTime } from './common.js';

const Duration = z
  .string()
  .min(1)
  .max(20)
  .openapi({ description: 'A duration: `250ms`, `2s`, `10m`, `1h`', example: '2s' });

const Status = z.union([z.literal(500), z.literal(502), z.literal(503), z.literal(504), z.literal(429)]);

const Action = z
  .object({
    status: Status.optional().openapi({
      description:
        "Answer this status instead of running the operation, as a problem+json like production's (429 with `Retry-After`).",
      example: 503,
    }),
    after_processing: z.boolean().optional().openapi({
      description:
        'Run the operation, then lose its answer: with `status` 502 or 504 the client gets that status, with `reset` the connection is reset, with `timeout` it hangs. The write happens and the idempotency cache holds its answer.',
    }),
    retry_after: z
      .number()
      .int()
      .min(0)
      .max(MAX_FAULT_RETRY_AFTER_S)
      .optional()
      .openapi({ description: 'Seconds in `Retry-After` of a 429 (default 1)', example: 2 }),
    delay: z
      .union([Duration, z.object({ min: Duration, max: Duration }).strict()])
      .optional()
      .openapi({
        description: `Real-time latency before the operation runs, fixed or drawn from a range (at most ${MAX_FAULT_DELAY_MS / 1000}s)`,
        example: '2s',
      }),
    reset: z
      .literal(true)
      .optional()
      .openapi({ description: 'Destroy the connection without an answer (the operation does not run)' }),
    timeout: Duration.optional().openapi({
      description: `Never answer: hold the connection until the client gives up or this long has passed (at most ${MAX_FAULT_TIMEOUT_MS / 1000}s), then close it`,
      example: '30s',
    }),
    truncate: z.literal(true).optional().openapi({
      description:
        'Run the operation and send its status and headers with only the first half of the body, then close the connection',
    }),
  })
  .strict()
  .openapi('FaultAction', {
    description:
      'Exactly one of `status`, `delay`, `reset`, `timeout` or `truncate` (`after_processing` and `retry_after` go with them).',
    example: { status: 503 },
  });

const Match = z
  .object({
    method: z
      .enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'get', 'post', 'put', 'patch', 'delete'])
      .optional()
      .openapi({ description: 'HTTP method; omitted: any method of the path', example: 'POST' }),
    path: z.string().min(1).max(200).openapi({
      description:
        'The OpenAPI path template below `/v3` (`/customers/{customer_id}` matches every customer). `/sandbox/*` routes are never faulted; `/auth/token` only when named.',
      example: '/loans',
    }),
  })
  .strict();

export const CreateFaultBody = z
  .object({
    match: Match,
    action: Action,
    times: z.number().int().min(1).max(MAX_FAULT_TIMES).optional().openapi({
      description:
        'Act on the next n matching calls, then the rule is gone. A rule on `/auth/token` needs `times` or `expires_in` (at most 1h).',
      example: 2,
    }),
    probability: z.number().gt(0).max(1).optional().openapi({
      description:
        "Act on each matching call with this chance, drawn from the partner's random stream (reproducible with `--seed`)",
      example: 0.25,
    }),
    expires_in: Duration.optional().openapi({
      description: 'Stop acting after this long on the partner clock (up to 30d; up to 1h on `/auth/token`)',
      example: '10m',
    }),
  })
  .strict()
  .openapi('CreateFaultRequest');

export const FaultRuleSchema = z
  .object({
    id: z.string().openapi({ example: 'flt_3f2a0c1d9b8e4f6a7c5d2e1b0a9f8e7d' }),
    match: z.object({
      method: z.string().nullable().openapi({ description: 'null: any method', example: 'POST' }),
      path: z.string().openapi({ example: '/loans' }),
    }),
    action: z.record(z.string(), z.unknown()).openapi({
      description: 'The action as stored (durations normalised)',
      example: { status: 502, after_processing: true },
    }),
    times_left: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'Matching calls it still acts on; null: no count', example: 2 }),
    probability: z.number().nullable().openapi({ example: null }),
    expires_at: DateTime.nullable().openapi({ description: 'Partner-clock time it stops acting' }),
    applied: z.number().int().openapi({ description: 'Calls it acted on so far', example: 0 }),
    created_at: DateTime,
  })
  .openapi('FaultRule');

export const FaultRuleList = z.object({ data: z.array(FaultRuleSchema) }).openapi('FaultRuleList');

export const FaultParams = z.object({
  fault_id: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: 'fault_id', in: 'path' }, example: 'flt_3f2a0c1d9b8e4f6a7c5d2e1b0a9f8e7d' }),
});

export const ClearedFaults = z
  .object({ deleted: z.number().int().openapi({ description: 'How many rules were removed', example: 2 }) })
  .openapi('ClearedFaults');
