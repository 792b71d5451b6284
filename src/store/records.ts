/**
 * Shapes of the rows the store keeps. Every row carries `seq`, a store-wide insertion counter
 * that breaks ties between equal timestamps so sorted lists have a total, stable order. The rows of
 * each area live in `partner-`, `customer-`, `credit-` and `webhook-records.ts`, re-exported here;
 * events and jobs, which every area writes, stay here.
 */
import { z } from 'zod';
import { epochMs, idOf, instant, jsonObject, partnerId, seq } from './record-rules.js';

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
export type { JsonObject, JsonValue } from './record-rules.js';
export type {
  ChaosActRecord,
  ChaosSettings,
  DeliveryAttemptRecord,
  DeliveryRecord,
  DeliveryStatus,
  WebhookEndpointRecord,
  WebhookEndpointStatus,
} from './webhook-records.js';

/** One entry of a partner's event log; `timestamp` is the partner-clock time of the change. */
export const EventRecordSchema = z.strictObject({
  id: idOf('evt_'),
  seq,
  partner_id: partnerId,
  /** Checked by the import against the event types the engine knows. */
  type: z.string().regex(/^[a-z_]+\.[a-z_]+$/, 'must be an event type like customer.created'),
  timestamp: instant,
  data: jsonObject,
});

/** A timed job: runs when the partner clock reaches `due_at_ms`, seeing that time as `now`. */
export const JobRecordSchema = z.strictObject({
  id: idOf('job_'),
  seq,
  partner_id: partnerId,
  /** Checked by the import against the job kinds the engine runs (each with its payload's shape). */
  kind: z.string().regex(/^[a-z_]+\.[a-z_]+$/, 'must be a job kind like loan.generate_contract'),
  due_at_ms: epochMs,
  payload: jsonObject,
});

export type EventRecord = z.infer<typeof EventRecordSchema>;
export type JobRecord = z.infer<typeof JobRecordSchema>;
