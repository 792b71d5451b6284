import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Contract } from '../../src/proxy/contract.js';
import { loadContract } from '../../src/proxy/contract-load.js';
import { isWebhookLine } from '../../src/proxy/recording-format.js';
import type { RunningServer } from '../../src/server.js';
import type { Alteration } from '../support/altered-upstream.js';
import { departuresOf, recordSession } from '../support/proxy-recording.js';
import { startQuietServer } from '../support/test-server.js';

const ENUM_LOAN_STATUS =
  'one of "processing", "contract_generated", "awaiting_signatures", "signed", "disbursing", "active", "finished", "cancelled", "error"';

/** Each altered upstream, and the one departure the proxy must name for it. */
const ALTERED: Array<[Alteration, { on: string; where: string; expected: string; actual: string }]> = [
  [
    'renamed-field',
    {
      on: 'createCustomer',
      where: 'response.body.external_id',
      expected: 'present (required)',
      actual: 'absent',
    },
  ],
  [
    'undeclared-status',
    {
      on: 'createSimulation',
      where: 'status',
      expected: 'one of 201, 400, 401, 404, 422, 429, 500',
      actual: '200',
    },
  ],
  [
    'missing-location',
    { on: 'createLoan', where: 'response header Location', expected: 'present (required)', actual: 'absent' },
  ],
  [
    'wrong-signature',
    {
      on: 'webhook customer.active',
      where: 'webhook signature',
      expected: 'a valid Standard Webhooks v1 signature',
      actual: 'no signature matches any of the 1 known secret',
    },
  ],
  [
    'broken-payload',
    {
      on: 'webhook loan.active',
      where: 'webhook.body.data.status',
      expected: ENUM_LOAN_STATUS,
      actual: '"activated"',
    },
  ],
];

describe('the validating proxy records an application session', () => {
  let server: RunningServer;
  let contract: Contract;
  beforeAll(async () => {
    server = await startQuietServer();
    contract = await loadContract(`${server.url}/v3/openapi.json`);
  });
  afterAll(() => server.close());

  it('in front of the sandbox: every exchange and delivery recorded, 0 departures', async () => {
    const recorded = await recordSession(server.url, contract);
    expect(recorded.session.seen).toEqual([
      'customer under_review',
      'customer active',
      'loan awaiting_signatures',
      'loan signed',
      'loan active',
      'transaction paid',
    ]);
    expect(departuresOf(recorded.lines)).toEqual([]);
    expect(recorded.printed).toEqual([]);
    const operations = recorded.lines.flatMap((line) => (isWebhookLine(line) ? [] : [line.operation]));
    expect(operations).toEqual([
      'createAccessToken',
      'createWebhookEndpoint',
      'createCustomer',
      'uploadCustomerDocument',
      'uploadCustomerDocument',
      'uploadCustomerDocument',
      'createBiometricsSession',
      'getCustomer',
      'getCustomer',
      'listCustomerCreditOffers',
      'createSimulation',
      'createLoan',
      'getLoan',
      'getLoan',
      'getLoan',
      'listLoanTransactions',
      'listLoanTransactions',
    ]);
    const webhooks = recorded.lines.filter(isWebhookLine);
    expect(new Set(webhooks.map((line) => line.webhook.type))).toEqual(
      new Set([
        'customer.created',
        'customer.kyc_updated',
        'customer.under_review',
        'customer.active',
        'credit_offer.available',
        'loan.created',
        'loan.contract_generated',
        'loan.awaiting_signatures',
        'loan.signed',
        'loan.disbursing',
        'loan.active',
        'loan.payment_received',
      ]),
    );
    expect(
      webhooks.every((line) => line.webhook.signature === 'valid' && line.webhook.answer.status === 200),
    ).toBe(true);
    // Secrets never reach the file: the token, the Basic credential, the endpoint's signing secret.
    const text = JSON.stringify(recorded.lines);
    expect(text).not.toMatch(/svc_at_|svc_cs_|whsec_/);
    expect(text).toContain('"authorization":"Bearer [redacted]"');
  });

  for (const [alteration, departure] of ALTERED) {
    it(`in front of an altered upstream (${alteration}): that one departure, on its exchange`, async () => {
      const recorded = await recordSession(server.url, contract, alteration);
      expect(departuresOf(recorded.lines)).toEqual([departure]);
      expect(recorded.printed).toHaveLength(1);
      expect(recorded.printed[0]).toContain(
        `${departure.where}: expected ${departure.expected}, got ${departure.actual}`,
      );
    });
  }
});
