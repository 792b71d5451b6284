import type { z } from '@hono/zod-openapi';
import { ApiError } from '../domain/errors.js';
import type { WorldRules } from '../domain/snapshot-import.js';
import type { AppDeps } from '../http/deps.js';
import { checkEndpointUrl } from '../webhooks/endpoint-url.js';
import { CreditOfferSchema } from './schemas/credit.js';
import {
  CustomerCreatedData,
  CustomerKycUpdatedData,
  CustomerStatusData,
  LoanCancelledData,
  LoanPaymentReceivedData,
} from './schemas/events.js';
import { LoanSchema } from './schemas/loans.js';

/**
 * The schema of each event type's `data`, as the webhooks section of the OpenAPI document gives
 * it (`api/openapi/webhooks.ts` names the same components): an imported event must carry what
 * the sandbox itself would have sent.
 */
export function eventDataSchema(type: string): z.ZodType {
  if (type === 'loan.payment_received') return LoanPaymentReceivedData;
  if (type === 'loan.cancelled') return LoanCancelledData;
  if (type.startsWith('loan.')) return LoanSchema;
  if (type.startsWith('credit_offer.')) return CreditOfferSchema;
  if (type === 'customer.created') return CustomerCreatedData;
  if (type === 'customer.kyc_updated') return CustomerKycUpdatedData;
  return CustomerStatusData;
}

/** The running sandbox's rules for imported worlds: its engine's job kinds, its URL rules, its event schemas. */
export function worldRules(deps: AppDeps): WorldRules {
  return {
    jobPayload: (kind) => deps.engine.jobPayload(kind),
    endpointUrl: (url) => {
      try {
        checkEndpointUrl(url, deps.config.webhookHttpHosts, deps.config.webhookPublicOnly);
        return undefined;
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        return `is refused by this sandbox, as it would be on a create: ${error.message}`;
      }
    },
    eventData: (type, data) => {
      const parsed = eventDataSchema(type).safeParse(data);
      const issue = parsed.success ? undefined : parsed.error.issues[0];
      if (!issue) return undefined;
      const at = issue.path.length > 0 ? ` at ${issue.path.map(String).join('.')}` : '';
      return `is not what a ${type} event carries${at}: ${issue.message}`;
    },
  };
}
