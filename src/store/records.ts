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
  /** The partner whose token created it (`POST /sandbox/partners`); absent for the default one. */
  created_by?: string;
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
  /**
   * The operation the key was first used on (`POST /v3/customers`); a replay answers only that
   * operation. Absent in files written before keys were bound to their operation.
   */
  operation?: string;
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

export type CustomerStatus = 'pending_kyc' | 'under_review' | 'active';
export type KycItemKind = 'document' | 'data';
export type KycItemStatus =
  | 'pending'
  | 'submitted'
  | 'approved'
  | 'pending_resubmission'
  | 'pending_correction';

/** One KYC requirement of a customer, as stored (the public KycItem plus bookkeeping). */
export interface KycItemRecord {
  kind: KycItemKind;
  type: string;
  description: string;
  status: KycItemStatus;
  message: string | null;
  uploaded_at: string | null;
  /** The document currently standing for this item (uploads only). */
  document_id: string | null;
  /** How many times the item was submitted (uploads, captures, corrections). */
  submissions: number;
}

export interface CustomerRecord {
  id: string;
  seq: number;
  partner_id: string;
  status: CustomerStatus;
  /** 11 digits. */
  cpf: string;
  /** 14 characters [0-9A-Z], normalized. */
  cnpj: string | null;
  name: string | null;
  email: string | null;
  phone: string | null;
  trading_name: string | null;
  external_id: string | null;
  kyc: KycItemRecord[];
  /** The pending "KYC review completes" job while under_review. */
  review_job_id: string | null;
  created_at: string;
  updated_at: string;
}

export type DocumentStatus = 'submitted' | 'approved' | 'rejected';

/** An uploaded KYC document: metadata and digest only, never the bytes. */
export interface DocumentRecord {
  id: string;
  seq: number;
  partner_id: string;
  customer_id: string;
  type: string;
  status: DocumentStatus;
  file_name: string;
  /** Detected from the leading bytes, never taken from the name or the declared type. */
  content_type: 'application/pdf' | 'image/jpeg' | 'image/png';
  declared_content_type: string;
  size: number;
  sha256: string;
  uploaded_at: string;
  created_at: string;
  updated_at: string;
}

export type BiometricsSessionStatus = 'open' | 'approved' | 'rejected';

/** A hosted biometrics capture session; the token in its URL is stored only as a SHA-256 hash. */
export interface BiometricsSessionRecord {
  id: string;
  seq: number;
  partner_id: string;
  customer_id: string;
  token_hash: string;
  status: BiometricsSessionStatus;
  expires_at: string;
  completed_at: string | null;
  created_at: string;
}

export type CreditOfferStatus = 'available' | 'accepted' | 'expired';

/** A pre-approved credit offer; exactly one installment shape is set: `installments`, or the min/max pair. */
export interface CreditOfferRecord {
  id: string;
  seq: number;
  partner_id: string;
  customer_id: string;
  status: CreditOfferStatus;
  approved_amount: string;
  min_amount: string;
  /** Percent a month. */
  interest_rate: number;
  installments: number | null;
  min_installments: number | null;
  max_installments: number | null;
  due_date_rule: string | null;
  /** Fee on each simulation, percent of the requested amount ("0.00" for individuals). */
  fee_percentage: string;
  /** IOF borrower class the terms were priced for. */
  borrower: 'individual' | 'company' | 'simples_mei';
  /** Name of the tier the terms came from ("custom" when set by the control endpoint). */
  tier: string;
  /** Only this simulation may be contracted. */
  latest_simulation_id: string | null;
  valid_until: string;
  created_at: string;
  updated_at: string;
}

/** A persisted simulation: every Simulation field plus what the contract page shows. */
export interface SimulationRecord {
  id: string;
  seq: number;
  partner_id: string;
  credit_offer_id: string;
  customer_id: string;
  requested_amount: string;
  amount: string;
  interest_amount: string;
  fees_amount: string;
  iof_amount: string;
  iof_flat: string;
  iof_daily: string;
  total_loan_amount: string;
  interest_percentage: number;
  cet_percentage: number;
  number_of_installments: number;
  installments_value: string;
  first_due_date: string;
  /** Partner-clock date (UTC) the simulation was made on. */
  simulation_date: string;
  created_at: string;
}

export type LoanStatus =
  | 'processing'
  | 'contract_generated'
  | 'awaiting_signatures'
  | 'signed'
  | 'disbursing'
  | 'active'
  | 'finished'
  | 'cancelled'
  | 'error';

export interface LoanRecord {
  id: string;
  seq: number;
  partner_id: string;
  customer_id: string;
  credit_offer_id: string;
  simulation_id: string;
  status: LoanStatus;
  requested_amount: string;
  net_amount: string | null;
  installments: number;
  installments_value: string;
  first_due_date: string;
  total_loan_amount: string;
  ccb_number: string | null;
  /** Authorizes the hosted signing page; set when the contract is generated. */
  signing_token: string | null;
  disbursement: { method: 'pix'; end_to_end_id: string; disbursed_at: string | null } | null;
  error: { code: string; message: string } | null;
  cancelled_at: string | null;
  created_at: string;
  updated_at: string;
}

export type TransactionStatus = 'pending' | 'paid' | 'partially_paid' | 'overdue';

/**
 * One installment of an active loan. Payments settle late charges first, then `amount_due`;
 * default interest accrues on the unpaid part of `amount_due` from `charges_since` on (read time
 * adds the days since then), and what accrued before the last payment is kept in `interest_accrued`.
 */
export interface TransactionRecord {
  id: string;
  seq: number;
  partner_id: string;
  loan_id: string;
  installment_number: number;
  /** The contractual due date (IOF, CET, days overdue and late charges count from it). */
  due_date: string;
  /**
   * The first business day on or after `due_date`: paying until then is on time. Absent in data
   * files written before the banking calendar existed, where it reads as `due_date`.
   */
  payable_until?: string;
  amount_due: string;
  /** Paid towards `amount_due`. */
  principal_paid: string;
  /** Paid towards late charges. */
  charges_paid: string;
  /** The 2 % fine, fixed when the installment became overdue. */
  fine: string;
  interest_accrued: string;
  /** Date from which default interest accrues on the unpaid part (null until overdue). */
  charges_since: string | null;
  status: TransactionStatus;
  paid_at: string | null;
  created_at: string;
  updated_at: string;
}

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
  /** The secret before the last rotation, still signing until `previous_secret_expires_at`. */
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  /** Deliberate misbehaviour of deliveries to this endpoint (absent or null: none). */
  chaos?: ChaosSettings | null;
  created_at: string;
  updated_at: string;
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
