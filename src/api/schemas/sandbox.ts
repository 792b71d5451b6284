import { z } from '@hono/zod-openapi';
import { DateTime } from './common.js';

export const ClockSchema = z
  .object({
    now: DateTime,
    frozen: z.boolean(),
  })
  .openapi('Clock');

export const AdvanceClockBody = z
  .object({
    by: z
      .string()
      .regex(/^\d{1,7}(s|m|h|d)$/, 'a duration like "90s", "15m", "2h" or "35d"')
      .optional()
      .openapi({ example: '35d' }),
    to: DateTime.optional(),
  })
  .refine((body) => (body.by === undefined) !== (body.to === undefined), {
    message: 'send exactly one of "by" or "to"',
    path: ['by'],
  })
  .openapi('AdvanceClockRequest');

export const CreatePartnerBody = z
  .object({
    name: z.string().min(1).max(200).optional().openapi({ example: 'ci-job-4711' }),
    clock: z.enum(['running', 'frozen']).optional(),
  })
  .openapi('CreatePartnerRequest');

export const NewPartnerSchema = z
  .object({
    id: z.string(),
    name: z.string().openapi({ example: 'ci-job-4711' }),
    created_at: DateTime,
    clock: ClockSchema,
    client_id: z.string(),
    client_secret: z.string().openapi({ description: 'Shown only in this response' }),
  })
  .openapi('NewPartner');

export const PartnerSchema = z
  .object({
    id: z.string(),
    name: z.string().openapi({ example: 'ci-job-4711' }),
    created_at: DateTime,
    clock: ClockSchema,
  })
  .openapi('Partner');
