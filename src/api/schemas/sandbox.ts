import { z } from '@hono/zod-openapi';
import { MAX_LIFETIME_SECONDS } from '../../domain/partner-lifetime.js';
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

/** Seconds of real time a partner lives from now (`expires_in`); a year at most. */
const ExpiresIn = z
  .number()
  .int()
  .min(1)
  .max(MAX_LIFETIME_SECONDS)
  .openapi({
    example: 7200,
    description: `Seconds of real time (not the partner clock) until the partner and all its data are removed, 1..${MAX_LIFETIME_SECONDS} (a year). From then on its credentials and tokens answer 401 \`partner_expired\`.`,
  });

/** When the partner expires (real time), or null: it lives until deleted. */
const ExpiresAt = DateTime.nullable().openapi({
  description:
    'When the partner and all its data are removed (real time, not the partner clock); null: it lives until deleted.',
});

export const CreatePartnerBody = z
  .object({
    name: z.string().min(1).max(200).optional().openapi({ example: 'ci-job-4711' }),
    clock: z.enum(['running', 'frozen']).optional(),
    expires_in: ExpiresIn.optional().openapi({
      description:
        "Seconds of real time until the partner and all its data are removed (1..31,622,400, a year). Absent: the sandbox's default lifetime (`--partner-ttl`; none unless the sandbox is hosted).",
    }),
  })
  .openapi('CreatePartnerRequest');

export const UpdatePartnerBody = z
  .object({
    expires_in: ExpiresIn.openapi({
      description:
        "A new lifetime, counted from now: extends (or shortens) the partner's `expires_at` to now + `expires_in` seconds of real time.",
    }),
  })
  .strict()
  .openapi('UpdatePartnerRequest');

export const NewPartnerSchema = z
  .object({
    id: z.string(),
    name: z.string().openapi({ example: 'ci-job-4711' }),
    created_at: DateTime,
    expires_at: ExpiresAt,
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
    expires_at: ExpiresAt,
    clock: ClockSchema,
  })
  .openapi('Partner');

export const PartnerIdParam = z.object({
  partner_id: z
    .string()
    .openapi({ param: { name: 'partner_id', in: 'path' }, example: 'ptn_3f2a0c1d9b8e4f6a7c5d2e1b0a9f8e7d' }),
});
