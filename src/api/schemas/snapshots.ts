import { z } from '@hono/zod-openapi';
import { SNAPSHOT_NAME } from '../../domain/snapshots.js';
import { DateTime } from './common.js';
import { ClockSchema } from './sandbox.js';

export const SnapshotName = z
  .string()
  .regex(
    SNAPSHOT_NAME,
    'lowercase letters, digits, "_", "." and "-", starting with a letter or digit, at most 63',
  )
  .openapi({ example: 'kyc-approved' });

export const SnapshotParams = z.object({
  name: SnapshotName.openapi({ param: { name: 'name', in: 'path' }, example: 'kyc-approved' }),
});

export const CreateSnapshotBody = z
  .object({
    name: SnapshotName,
    replace: z
      .boolean()
      .optional()
      .openapi({ description: 'Overwrite a snapshot of the same name (otherwise 409 snapshot_exists)' }),
  })
  .openapi('CreateSnapshotRequest');

export const SnapshotSchema = z
  .object({
    name: SnapshotName,
    saved_at: DateTime.openapi({ description: 'Partner-clock time of the save' }),
    clock: ClockSchema.openapi({ description: 'The clock as saved: a restore puts it back' }),
    random_draws: z.number().int().nullable().openapi({
      description: "Position of the partner's seeded random stream (`--seed`); null without a seed",
    }),
    bytes: z
      .number()
      .int()
      .openapi({ description: 'Size of the saved world as JSON (what the bounds count)' }),
    counts: z
      .record(z.string(), z.number().int())
      .openapi({ description: 'Rows saved per table', example: { customers: 3, loans: 1, events: 12 } }),
  })
  .openapi('Snapshot');

export const SnapshotListSchema = z
  .object({ data: z.array(SnapshotSchema), has_more: z.boolean() })
  .openapi('SnapshotList');

export const DeletedSnapshotSchema = z
  .object({ name: SnapshotName, deleted: z.literal(true) })
  .openapi('DeletedSnapshot');

export const RestoredSnapshotSchema = z
  .object({
    snapshot: SnapshotSchema,
    clock: ClockSchema.openapi({ description: 'The partner clock after the restore' }),
    abandoned_deliveries: z.number().int().openapi({
      description:
        'Webhook attempts waiting or in flight at the moment of the restore, abandoned (their outcome is not recorded; see docs/snapshots.md)',
    }),
  })
  .openapi('RestoredSnapshot');

/** The export document (one versioned JSON object); `tables` holds the rows as the API stores them. */
export const SnapshotDocumentSchema = z
  .object({
    format: z.literal('credit-sandbox-snapshot'),
    version: z.literal(1),
    partner: z.string().openapi({ description: 'The partner it was saved from' }),
    name: SnapshotName,
    saved_at: DateTime,
    clock: ClockSchema,
    random_draws: z.number().int().nullable(),
    tables: z
      .record(z.string(), z.array(z.record(z.string(), z.unknown())))
      .openapi({ description: 'Every row of the partner per table (customers, loans, events, jobs, …)' }),
  })
  .openapi('SnapshotDocument');

export const ExportQuery = z.object({
  gzip: z
    .enum(['0', '1', 'true', 'false'])
    .optional()
    .openapi({
      param: { name: 'gzip', in: 'query' },
      description: 'Answer a gzip file (`application/gzip`) instead of JSON',
    }),
});

export const ImportQuery = z.object({
  name: SnapshotName.optional().openapi({
    param: { name: 'name', in: 'query' },
    description: "Keep it under this name instead of the document's `name`",
  }),
  replace: z
    .enum(['true', 'false'])
    .optional()
    .openapi({
      param: { name: 'replace', in: 'query' },
      description: 'Overwrite a snapshot of the same name (otherwise 409 snapshot_exists)',
    }),
});
