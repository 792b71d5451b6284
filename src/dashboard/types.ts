import type { z } from 'zod';
import type { CreditOfferSchema, SimulationSchema } from '../api/schemas/credit.js';
import type { CustomerSchema } from '../api/schemas/customers.js';
import type { EventSchema } from '../api/schemas/events.js';
import type { LoanSchema, TransactionSchema } from '../api/schemas/loans.js';
import type { ClockSchema } from '../api/schemas/sandbox.js';
import type { RunResultSchema, ScenarioSchema } from '../api/schemas/scenarios.js';
import type { ChaosSchema, DeliverySchema, WebhookEndpointSchema } from '../api/schemas/webhooks.js';

/** The API's response shapes, inferred from the same zod schemas that define the API. */
export type Customer = z.infer<typeof CustomerSchema>;
export type CreditOffer = z.infer<typeof CreditOfferSchema>;
export type Simulation = z.infer<typeof SimulationSchema>;
export type Loan = z.infer<typeof LoanSchema>;
export type Transaction = z.infer<typeof TransactionSchema>;
export type ApiEvent = z.infer<typeof EventSchema>;
export type Delivery = z.infer<typeof DeliverySchema>;
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;
export type Chaos = z.infer<typeof ChaosSchema>;
export type Scenario = z.infer<typeof ScenarioSchema>;
export type RunResult = z.infer<typeof RunResultSchema>;
export type ClockView = z.infer<typeof ClockSchema>;

export interface List<T> {
  data: T[];
  has_more: boolean;
}
