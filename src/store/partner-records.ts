/** Record shapes of partners and their sandbox state: clocks, credentials, idempotency keys, fault rules. */
import { z } from 'zod';
import { count, epochMs, partnerId, seq, text } from './record-rules.js';

/** A partner clock: real time + offset while running, or pinned at `frozen_at_ms`. */
export interface ClockState {
  offset_ms: number;
  frozen_at_ms: number | null;
}

export interface PartnerRecord {
  id: string;
  seq: number;
  name: string;
  created_at: string;
  clock: ClockState;
  /** The partner whose token created it (`POST /sandbox/partners`); absent for the default one. */
  created_by?: string;
  /**
   * When the partner expires, real time in ms since the epoch (not its clock: a lifetime bounds
   * what the sandbox holds); absent or null: it lives until deleted.
   */
  expires_at_ms?: number | null;
}

/** Why a partner is gone: its lifetime ran out, or it was deleted. */
export type PartnerGoneReason = 'expired' | 'deleted';

/**
 * What stays of a gone partner for a while, so that its credentials and tokens answer why they
 * stopped working (401 `partner_expired` / `partner_deleted`): one row for the partner's id and
 * one per client id it had. Nothing else of the partner is kept.
 */
export interface PartnerTombstoneRecord {
  /** The gone partner's id, or one of its client ids. */
  id: string;
  seq: number;
  /** The gone partner. */
  partner_id: string;
  reason: PartnerGoneReason;
  /** Real time it went, ms since the epoch. */
  gone_at_ms: number;
}

export type CredentialStatus = 'active' | 'revoked';

export interface CredentialRecord {
  /** The client_id. */
  id: string;
  seq: number;
  partner_id: string;
  name: string;
  /** SHA-256 of the secret: the secret itself is shown once and never stored. */
  secret_hash: string;
  status: CredentialStatus;
  created_at: string;
  revoked_at: string | null;
}

/** Statuses an idempotency key may replay: what the operations answer (never 1xx, 3xx, 5xx or a bodiless 204/205). */
const replayableStatus = count(200, 499).refine(
  (status) => (status < 300 ? status !== 204 && status !== 205 : status >= 400),
  'must be a 2xx (not 204/205) or 4xx status',
);

/** A header value the replay sends back: visible ASCII and blanks only. */
const headerValue = z.string().regex(/^[\t\x20-\x7e]{0,2048}$/, 'must be a header value (visible ASCII)');

export const IdempotencyRecordSchema = z.strictObject({
  /** `${partner_id} ${key}`. */
  id: text(600, 1),
  seq,
  partner_id: partnerId,
  /**
   * The operation the key was first used on (`POST /v3/customers`); a replay answers only that
   * operation. Absent in files written before keys were bound to their operation.
   */
  operation: text(64 * 1024)
    .refine(
      (operation) => operation.startsWith('POST /v3/'),
      'must be an operation like "POST /v3/customers"',
    )
    .optional(),
  status: replayableStatus,
  headers: z.strictObject({ 'content-type': headerValue.optional(), location: headerValue.optional() }),
  body: text(16 * 1024 * 1024),
  expires_at_ms: epochMs,
});

export type IdempotencyRecord = z.infer<typeof IdempotencyRecordSchema>;

/**
 * What an API-side fault does to a matching call, as the partner wrote it (`POST
 * /v3/sandbox/faults`): answer a status, delay, reset the connection, never answer, or truncate.
 * Durations are kept as written ("2s", "100ms") and read when the rule acts.
 */
export type FaultAction =
  | { status: 500 | 502 | 503 | 504 | 429; after_processing?: boolean; retry_after?: number }
  | { delay: string | { min: string; max: string } }
  | { reset: true; after_processing?: boolean }
  | { timeout: string; after_processing?: boolean }
  | { truncate: true };

/** One API-side fault rule of a partner (test-harness configuration, never part of a snapshot). */
export interface FaultRuleRecord {
  /** `flt_` + random. */
  id: string;
  seq: number;
  partner_id: string;
  /** Upper-case HTTP method, or null for any method. */
  method: string | null;
  /** A path template of the OpenAPI document below `/v3`, e.g. `/customers/{customer_id}`. */
  path: string;
  action: FaultAction;
  /** Calls it still acts on; null: every matching call (or each with `probability`). */
  times_left: number | null;
  /** Chance in (0, 1] that a matching call is faulted; null: always. */
  probability: number | null;
  /** Partner-clock time after which it no longer acts, epoch ms; null: never expires. */
  expires_at_ms: number | null;
  /** Calls it acted on so far. */
  applied: number;
  created_at: string;
}
