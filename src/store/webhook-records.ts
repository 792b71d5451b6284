/** Record shapes of webhooks: endpoints, their chaos settings, deliveries and attempts. */

export type WebhookEndpointStatus = 'active' | 'disabled';

/** A partner's webhook endpoint. Secrets are kept in clear: the sandbox must sign with them. */
export interface WebhookEndpointRecord {
  id: string;
  seq: number;
  partner_id: string;
  url: string;
  /** Subscribed patterns as given (deduplicated); empty means every event. */
  events: string[];
  description: string;
  status: WebhookEndpointStatus;
  secret: string;
  /**
   * Secrets replaced by rotations that still sign beside `secret`, each until the expiry its
   * rotation announced (`previous_secret_expires_at`), newest first; at most MAX_PREVIOUS_SECRETS.
   * Expired ones may linger until the next rotation; signing skips them.
   */
  previous_secrets: PreviousSecretRecord[];
  /** Deliberate misbehaviour of deliveries to this endpoint (absent or null: none). */
  chaos?: ChaosSettings | null;
  created_at: string;
  updated_at: string;
}

/** A secret replaced by a rotation, still signing until `expires_at` (partner clock). */
export interface PreviousSecretRecord {
  secret: string;
  expires_at: string;
}

/** Webhook chaos of one endpoint: how often and how its deliveries misbehave, on purpose. */
export interface ChaosSettings {
  /** Probability that a successful delivery is sent a second time (same `webhook-id`). */
  duplicate_rate: number;
  /** Probability that an attempt fails before it is sent (then retried on the normal schedule). */
  drop_rate: number;
  /** Each first attempt waits a random time up to this on the partner clock. */
  max_delay_ms: number;
  /** Delayed deliveries may overtake each other (otherwise they keep event order). */
  reorder: boolean;
}

/** One chaotic act on a delivery, for the delivery log. */
export interface ChaosActRecord {
  act: 'delayed' | 'dropped' | 'duplicate';
  /** Partner-clock time of the act. */
  at: string;
  /** `delayed`: how long the first attempt waits. */
  delay_ms: number | null;
  /** `dropped`: the attempt that was not sent. */
  attempt_number: number | null;
  /** `duplicate`: the delivery that sends the event again. */
  duplicate_delivery_id: string | null;
}

export type DeliveryStatus =
  | 'pending'
  | 'queued'
  | 'sending'
  | 'succeeded'
  | 'failed'
  | 'skipped'
  | 'cancelled';

/** One HTTP attempt of a delivery; times are on the partner clock, `duration_ms` is real time. */
export interface DeliveryAttemptRecord {
  attempt_number: number;
  attempted_at: string;
  status_code: number | null;
  duration_ms: number;
  /** The start of the receiver's answer (first 4 KB); null without an answer. */
  response_body?: string | null;
  error: string | null;
  next_attempt_at: string | null;
}

/** One event to one endpoint (message -> destination), with its attempts. */
export interface DeliveryRecord {
  id: string;
  seq: number;
  partner_id: string;
  event_id: string;
  event_type: string;
  endpoint_id: string;
  /** `duplicate`: sent again on purpose by chaos (`duplicate_rate`). */
  trigger: 'event' | 'redeliver' | 'duplicate';
  status: DeliveryStatus;
  attempts: DeliveryAttemptRecord[];
  /** What webhook chaos did to this delivery (absent in data written before chaos existed). */
  chaos?: ChaosActRecord[];
  /** Due time of the pending attempt, or of the attempt waiting for a slot / in flight. */
  next_attempt_at: string | null;
  /** The scheduled `webhook.attempt` job while `pending`. */
  job_id: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * Most previous secrets an endpoint keeps signing at once (each until its own expiry): a delivery
 * carries at most 11 signatures (~50 bytes each), and an endpoint row at most 11 secrets.
 */
export const MAX_PREVIOUS_SECRETS = 10;

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
