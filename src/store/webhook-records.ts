/**
 * Record shapes of webhooks: endpoints, their chaos settings, deliveries and attempts. Each is a
 * zod schema (imports and reloaded rows are checked against it) with its type derived from it.
 */
import { z } from 'zod';
import { count, idOf, instant, partnerId, receivedText, seq, text } from './record-rules.js';

export const DELIVERY_STATUSES = [
  'pending',
  'queued',
  'sending',
  'succeeded',
  'failed',
  'skipped',
  'cancelled',
] as const;

/** Webhook chaos of one endpoint: how often and how its deliveries misbehave, on purpose. */
export const ChaosSettingsSchema = z.strictObject({
  /** Probability that a successful delivery is sent a second time (same `webhook-id`). */
  duplicate_rate: z.number().min(0).max(1),
  /** Probability that an attempt fails before it is sent (then retried on the normal schedule). */
  drop_rate: z.number().min(0).max(1),
  /** Each first attempt waits a random time up to this on the partner clock. */
  max_delay_ms: count(0, 3_600_000),
  /** Delayed deliveries may overtake each other (otherwise they keep event order). */
  reorder: z.boolean(),
});

/**
 * Most previous secrets an endpoint keeps signing at once (each until its own expiry): a delivery
 * carries at most 11 signatures (~50 bytes each), and an endpoint row at most 11 secrets.
 */
export const MAX_PREVIOUS_SECRETS = 10;

const whsecSecret = z.string().regex(/^whsec_[A-Za-z0-9+/]{16,128}={0,2}$/, 'must be a whsec_ secret');

/** A secret replaced by a rotation, still signing until `expires_at` (partner clock). */
export const PreviousSecretRecordSchema = z.strictObject({
  secret: whsecSecret,
  expires_at: instant,
});

/** An endpoint row as the sandbox keeps it (rows of older versions: see `WebhookEndpointRecordSchema`). */
const CurrentEndpointRecordSchema = z.strictObject({
  id: idOf('we_'),
  seq,
  partner_id: partnerId,
  /** Checked again by the import against the URL rules of the running sandbox. */
  url: text(2048, 1),
  /** Subscribed patterns as given (deduplicated); empty means every event. */
  events: z.array(z.string().regex(/^(\*|[a-z_]+\.(\*|[a-z_]+))$/, 'must be an event pattern')).max(100),
  description: text(500),
  status: z.enum(['active', 'disabled']),
  secret: whsecSecret,
  /**
   * Secrets replaced by rotations that still sign beside `secret`, each until the expiry its
   * rotation announced (`previous_secret_expires_at`), newest first; at most MAX_PREVIOUS_SECRETS.
   * Expired ones may linger until the next rotation; signing skips them.
   */
  previous_secrets: z.array(PreviousSecretRecordSchema).max(MAX_PREVIOUS_SECRETS),
  /** Deliberate misbehaviour of deliveries to this endpoint (absent or null: none). */
  chaos: ChaosSettingsSchema.nullable().optional(),
  created_at: instant,
  updated_at: instant,
});

/**
 * A row as an older version wrote it goes through `upgradeEndpointRow` first (one previous secret
 * in `previous_secret` / `previous_secret_expires_at`; an export made before the change), as the
 * store's Table does on load. Legacy fields not as an older version wrote them (both null, or both
 * strings) are left for the strict schema to name as unknown fields, never dropped unseen.
 */
function upgradeIfLegacy(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const row = value as Record<string, unknown>;
  if (!Object.hasOwn(row, 'previous_secret') && !Object.hasOwn(row, 'previous_secret_expires_at'))
    return value;
  // As older versions wrote them: both null (never rotated) or both strings.
  const kinds = [typeof row.previous_secret, typeof row.previous_secret_expires_at];
  const pair = row.previous_secret === null && row.previous_secret_expires_at === null;
  if (!pair && !(kinds[0] === 'string' && kinds[1] === 'string')) return value;
  if (Object.hasOwn(row, 'previous_secrets') && !Array.isArray(row.previous_secrets)) return value;
  return upgradeEndpointRow(row as unknown as WebhookEndpointRecord);
}

/** A partner's webhook endpoint. Secrets are kept in clear: the sandbox must sign with them. */
export const WebhookEndpointRecordSchema = z.preprocess(upgradeIfLegacy, CurrentEndpointRecordSchema);

/** One chaotic act on a delivery, for the delivery log. */
export const ChaosActRecordSchema = z.strictObject({
  act: z.enum(['delayed', 'dropped', 'duplicate']),
  /** Partner-clock time of the act. */
  at: instant,
  /** `delayed`: how long the first attempt waits. */
  delay_ms: count(0, 3_600_000).nullable(),
  /** `dropped`: the attempt that was not sent. */
  attempt_number: count(1, 1000).nullable(),
  /** `duplicate`: the delivery that sends the event again. */
  duplicate_delivery_id: idOf('dlv_').nullable(),
});

/** One HTTP attempt of a delivery; times are on the partner clock, `duration_ms` is real time. */
export const DeliveryAttemptRecordSchema = z.strictObject({
  attempt_number: count(1, 1000),
  attempted_at: instant,
  status_code: count(100, 999).nullable(),
  duration_ms: z
    .number()
    .min(0)
    .max(2 ** 31),
  /** The start of the receiver's answer (first 4 KB); null without an answer. */
  response_body: receivedText(8192).nullable().optional(),
  error: receivedText(64 * 1024).nullable(),
  next_attempt_at: instant.nullable(),
});

/** One event to one endpoint (message -> destination), with its attempts. */
export const DeliveryRecordSchema = z.strictObject({
  id: idOf('dlv_'),
  seq,
  partner_id: partnerId,
  event_id: idOf('evt_'),
  event_type: z.string().regex(/^[a-z_]+\.[a-z_]+$/, 'must be an event type'),
  endpoint_id: idOf('we_'),
  /** `duplicate`: sent again on purpose by chaos (`duplicate_rate`). */
  trigger: z.enum(['event', 'redeliver', 'duplicate']),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.array(DeliveryAttemptRecordSchema).max(1000),
  /** What webhook chaos did to this delivery (absent in data written before chaos existed). */
  chaos: z.array(ChaosActRecordSchema).max(1000).optional(),
  /** Due time of the pending attempt, or of the attempt waiting for a slot / in flight. */
  next_attempt_at: instant.nullable(),
  /** The scheduled `webhook.attempt` job while `pending`. */
  job_id: idOf('job_').nullable(),
  created_at: instant,
  updated_at: instant,
});

export type ChaosSettings = z.infer<typeof ChaosSettingsSchema>;
export type WebhookEndpointRecord = z.infer<typeof CurrentEndpointRecordSchema>;
export type PreviousSecretRecord = z.infer<typeof PreviousSecretRecordSchema>;
export type WebhookEndpointStatus = WebhookEndpointRecord['status'];
export type ChaosActRecord = z.infer<typeof ChaosActRecordSchema>;
export type DeliveryAttemptRecord = z.infer<typeof DeliveryAttemptRecordSchema>;
export type DeliveryRecord = z.infer<typeof DeliveryRecordSchema>;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * An endpoint row as any version wrote it: rows written before several previous secrets were kept
 * (journal files, PostgreSQL rows, exported snapshots) hold at most one, in `previous_secret` and
 * `previous_secret_expires_at`. The store reads every row it loads through this (see Table's
 * `upgrade`), so the rest of the sandbox sees only `previous_secrets`.
 */
export function upgradeEndpointRow(row: WebhookEndpointRecord): WebhookEndpointRecord {
  if (Array.isArray(row.previous_secrets) && !('previous_secret' in row)) return row;
  const {
    previous_secret: secret,
    previous_secret_expires_at: expiresAt,
    ...rest
  } = row as WebhookEndpointRecord & { previous_secret?: unknown; previous_secret_expires_at?: unknown };
  const kept = Array.isArray(row.previous_secrets) ? row.previous_secrets : [];
  const legacy =
    typeof secret === 'string' && typeof expiresAt === 'string' ? [{ secret, expires_at: expiresAt }] : [];
  return { ...rest, previous_secrets: [...kept, ...legacy] };
}
