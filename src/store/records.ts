/**
 * Shapes of the rows the store keeps. Every row carries `seq`, a store-wide insertion counter
 * that breaks ties between equal timestamps so sorted lists have a total, stable order.
 */

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

export interface IdempotencyRecord {
  /** `${partner_id} ${key}`. */
  id: string;
  seq: number;
  partner_id: string;
  status: number;
  headers: Record<string, string>;
  body: string;
  expires_at_ms: number;
}

/** JSON data an event or a job carries. */
export type JsonObject = { [key: string]: JsonValue };
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;

/** One entry of a partner's event log; `timestamp` is the partner-clock time of the change. */
export interface EventRecord {
  id: string;
  seq: number;
  partner_id: string;
  type: string;
  timestamp: string;
  data: JsonObject;
}

/** A timed job: runs when the partner clock reaches `due_at_ms`, seeing that time as `now`. */
export interface JobRecord {
  id: string;
  seq: number;
  partner_id: string;
  kind: string;
  due_at_ms: number;
  payload: JsonObject;
}
