/**
 * Shapes of the rows the store keeps. Every row carries `seq`, a store-wide insertion counter
 * that breaks ties between equal timestamps so sorted lists have a total, stable order. The rows of
 * each area live in `partner-`, `customer-`, `credit-` and `webhook-records.ts`, re-exported here;
 * events and jobs, which every area writes, stay here.
 */

export type {
  CreditOfferRecord,
  CreditOfferStatus,
  LoanRecord,
  LoanStatus,
  SimulationRecord,
  TransactionRecord,
  TransactionStatus,
} from './credit-records.js';
export type {
  BiometricsSessionRecord,
  BiometricsSessionStatus,
  CustomerRecord,
  CustomerStatus,
  DocumentRecord,
  DocumentStatus,
  KycItemKind,
  KycItemRecord,
  KycItemStatus,
} from './customer-records.js';
export type {
  ClockState,
  CredentialRecord,
  CredentialStatus,
  FaultAction,
  FaultRuleRecord,
  IdempotencyRecord,
  PartnerGoneReason,
  PartnerRecord,
  PartnerTombstoneRecord,
} from './partner-records.js';
export type {
  ChaosActRecord,
  ChaosSettings,
  DeliveryAttemptRecord,
  DeliveryRecord,
  DeliveryStatus,
  WebhookEndpointRecord,
  WebhookEndpointStatus,
} from './webhook-records.js';

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
