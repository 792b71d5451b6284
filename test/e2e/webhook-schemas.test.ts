import { describe, expect, it } from 'vitest';
import { ALL_EVENT_TYPES, type EventType } from '../../src/engine/event-types.js';
import type { JsonObject } from '../../src/store/records.js';
import { sampleEventData } from '../support/event-samples.js';
import { createTestSandbox } from '../support/sandbox.js';
import { checkWebhookBody } from '../support/webhook-schema.js';
import { drainWebhookViolations } from '../support/webhook-violations.js';

/** The violations the suite's webhook check reports for one delivered body (and forgets them). */
function violationsOf(type: string, data: JsonObject): string[] {
  drainWebhookViolations();
  checkWebhookBody(JSON.stringify({ type, timestamp: '2026-03-02T12:00:00.000Z', data }));
  return drainWebhookViolations();
}

const STATUSES: Record<string, readonly string[]> = {
  customer: ['pending_kyc', 'under_review', 'active'],
  credit_offer: ['available', 'accepted', 'expired'],
  loan: [
    'processing',
    'contract_generated',
    'awaiting_signatures',
    'signed',
    'disbursing',
    'active',
    'finished',
    'cancelled',
    'error',
  ],
};

/** The status each event implies (the spec's event tables; `kyc_updated` any customer status). */
const IMPLIED_STATUS: Record<EventType, readonly string[]> = {
  'customer.created': ['pending_kyc'],
  'customer.under_review': ['under_review'],
  'customer.kyc_updated': ['pending_kyc', 'under_review', 'active'],
  'customer.active': ['active'],
  'credit_offer.available': ['available'],
  'credit_offer.expired': ['expired'],
  'loan.created': ['processing'],
  'loan.contract_generated': ['contract_generated'],
  'loan.awaiting_signatures': ['awaiting_signatures'],
  'loan.signed': ['signed'],
  'loan.disbursing': ['disbursing'],
  'loan.active': ['active'],
  'loan.payment_received': ['active'],
  'loan.finished': ['finished'],
  'loan.cancelled': ['cancelled'],
  'loan.error': ['error'],
};

describe("the webhooks schemas fix what each event implies (the suite's delivery check uses them)", () => {
  it.each(ALL_EVENT_TYPES)('%s: a realistic delivery passes', (type) => {
    expect(violationsOf(type, sampleEventData(type))).toEqual([]);
  });

  it.each(ALL_EVENT_TYPES)('%s: every status the event does not imply is caught', (type) => {
    const resource = type.slice(0, type.indexOf('.'));
    for (const status of STATUSES[resource] ?? []) {
      const problems = violationsOf(type, { ...sampleEventData(type), status });
      if (IMPLIED_STATUS[type].includes(status)) expect(problems, status).toEqual([]);
      else expect(problems, `${type} with status ${status}`).toHaveLength(1);
    }
  });

  it.each([
    ['loan.contract_generated', { ccb_number: null }],
    ['loan.contract_generated', { signing_url: null }],
    ['loan.awaiting_signatures', { signing_url: null }],
    ['loan.signed', { ccb_number: null }],
    ['loan.disbursing', { disbursement: null }],
    ['loan.active', { net_amount: null }],
    ['loan.cancelled', { cancelled_at: null }],
    ['loan.error', { error: null }],
    ['loan.payment_received', { amount_paid: undefined }],
    ['customer.kyc_updated', { status: 'blocked' }],
  ] as const)('%s: a payload without what the event announces (%j) is caught', (type, change) => {
    const data = { ...sampleEventData(type), ...change } as JsonObject;
    expect(violationsOf(type, JSON.parse(JSON.stringify(data)) as JsonObject)).toHaveLength(1);
  });

  it('credit offers carry installments or min_installments with max_installments, never both, never neither', () => {
    const { installments: _fixed, ...noCount } = sampleEventData('credit_offer.available');
    const range = { ...noCount, min_installments: 6, max_installments: 24 };
    expect(violationsOf('credit_offer.available', range)).toEqual([]);
    expect(violationsOf('credit_offer.available', { ...range, installments: 12 })).toHaveLength(1);
    expect(violationsOf('credit_offer.available', noCount)).toHaveLength(1);
    expect(violationsOf('credit_offer.available', { ...noCount, min_installments: 6 })).toHaveLength(1);
  });

  it('declares WebhookEndpoint.url as a URI and CreditOffer as oneOf its two shapes', async () => {
    const sandbox = createTestSandbox();
    const doc = (
      await sandbox.json<{ components: { schemas: Record<string, Record<string, unknown>> } }>(
        'GET',
        '/v3/openapi.json',
      )
    ).body;
    const schemas = doc.components.schemas;
    expect(schemas.WebhookEndpoint?.properties).toMatchObject({ url: { type: 'string', format: 'uri' } });
    expect(schemas.CreditOffer?.oneOf).toHaveLength(2);
  });
});
