import type { z } from 'zod';
import {
  CreditOfferRecordSchema,
  LoanRecordSchema,
  SimulationRecordSchema,
  TransactionRecordSchema,
} from './credit-records.js';
import {
  BiometricsSessionRecordSchema,
  CustomerRecordSchema,
  DocumentRecordSchema,
} from './customer-records.js';
import { IdempotencyRecordSchema } from './partner-records.js';
import { EventRecordSchema, JobRecordSchema } from './records.js';
import { DeliveryRecordSchema, WebhookEndpointRecordSchema } from './webhook-records.js';

/**
 * The row schema of every table a partner's world holds (the snapshot tables): what an import, a
 * `serve --snapshot` fixture and a data file written by an older version are checked against.
 * `world-schemas.test.ts` fails when a snapshot table has no schema here.
 */
export const WORLD_ROW_SCHEMAS = {
  idempotency: IdempotencyRecordSchema,
  events: EventRecordSchema,
  jobs: JobRecordSchema,
  customers: CustomerRecordSchema,
  documents: DocumentRecordSchema,
  biometrics_sessions: BiometricsSessionRecordSchema,
  webhook_endpoints: WebhookEndpointRecordSchema,
  webhook_deliveries: DeliveryRecordSchema,
  credit_offers: CreditOfferRecordSchema,
  simulations: SimulationRecordSchema,
  loans: LoanRecordSchema,
  transactions: TransactionRecordSchema,
} as const satisfies Record<string, z.ZodType<{ id: string; seq: number; partner_id: string }>>;

export type WorldTableName = keyof typeof WORLD_ROW_SCHEMAS;

/** The parsed row types of the world tables, per table. */
export type WorldRowOf<T extends WorldTableName> = z.infer<(typeof WORLD_ROW_SCHEMAS)[T]>;

export function isWorldTable(name: string): name is WorldTableName {
  return Object.hasOwn(WORLD_ROW_SCHEMAS, name);
}
