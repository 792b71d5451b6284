import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PARTNER_ID } from '../../src/domain/default-partner.js';
import { matchesAny } from '../../src/engine/event-types.js';
import type { OutgoingWebhook, ReceiverAnswer } from '../../src/webhooks/sender.js';
import { MAGIC_CPF, TIER_CPF } from '../support/credit.js';
import { CPF, submitAllKyc } from '../support/customers.js';
import { sampleEventData } from '../support/event-samples.js';
import { createTestSandbox, type TestSandbox } from '../support/sandbox.js';

const CPFS = [
  CPF.plain,
  CPF.other,
  TIER_CPF.standard,
  TIER_CPF.premium,
  MAGIC_CPF.paysOnTime,
  CPF.rejectedOnce,
];
const ENDPOINTS = [
  ['*'],
  ['customer.*'],
  ['loan.*', 'credit_offer.available'],
  ['customer.active', 'loan.signed'],
];

type Action =
  | { kind: 'customer'; cpf: number }
  | { kind: 'kyc'; customer: number; approve: boolean }
  | { kind: 'loan'; customer: number }
  | { kind: 'sign'; loan: number }
  | { kind: 'advance'; by: string };

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ kind: fc.constant('customer' as const), cpf: fc.nat(CPFS.length - 1) }),
  fc.record({ kind: fc.constant('kyc' as const), customer: fc.nat(5), approve: fc.boolean() }),
  fc.record({ kind: fc.constant('loan' as const), customer: fc.nat(5) }),
  fc.record({ kind: fc.constant('sign' as const), loan: fc.nat(3) }),
  fc.record({
    kind: fc.constant('advance' as const),
    by: fc.constantFrom('1s', '3s', '6s', '11s', '2m', '1d', '40d'),
  }),
);

/**
 * A healthy receiver simulated in-process: every request is answered 200 after a latency taken
 * from the run's list, and counts as received when its handling ends (as a receiver's state would
 * change). Overlapping sends to one endpoint would let a later event finish first.
 */
function healthyReceiver(latencies: number[]) {
  const received = new Map<string, string[]>();
  let n = 0;
  const send = async (webhook: OutgoingWebhook): Promise<ReceiverAnswer> => {
    const latency = latencies[n++ % latencies.length] ?? 0;
    await new Promise((resolve) => setTimeout(resolve, latency));
    const list = received.get(webhook.url) ?? [];
    list.push(webhook.headers['webhook-id'] as string);
    received.set(webhook.url, list);
    return { statusCode: 200, retryAfter: null, body: '' };
  };
  return { received, send };
}

async function play(sandbox: TestSandbox, actions: Action[]): Promise<void> {
  const customers: string[] = [];
  const loans: string[] = [];
  for (const a of actions) {
    if (a.kind === 'customer') {
      const res = await sandbox.json<{ id: string }>('POST', '/v3/customers', {
        body: { cpf: CPFS[a.cpf], name: 'Journey' },
      });
      if (res.status === 201) customers.push(res.body.id);
    } else if (a.kind === 'kyc') {
      const id = customers[a.customer % Math.max(customers.length, 1)];
      if (!id) continue;
      const customer = await sandbox.json<{ status: string }>('GET', `/v3/customers/${id}`);
      if (customer.body.status !== 'pending_kyc') continue;
      await submitAllKyc(sandbox, id).catch(() => undefined);
      if (a.approve) await sandbox.request('POST', `/v3/sandbox/customers/${id}/kyc/approve`);
    } else if (a.kind === 'loan') {
      const id = customers[a.customer % Math.max(customers.length, 1)];
      if (!id) continue;
      const offers = await sandbox.json<{
        data: {
          id: string;
          min_amount: string;
          installments: number | null;
          min_installments: number | null;
        }[];
      }>('GET', `/v3/customers/${id}/credit-offers?status=available`);
      const offer = offers.body.data?.[0];
      if (!offer) continue;
      const simulation = await sandbox.json<{ id: string }>(
        'POST',
        `/v3/credit-offers/${offer.id}/simulations`,
        {
          body: {
            requested_amount: offer.min_amount,
            installment_count: offer.installments ?? offer.min_installments,
          },
        },
      );
      if (simulation.status !== 201) continue;
      const loan = await sandbox.json<{ id: string }>('POST', '/v3/loans', {
        body: { credit_offer_id: offer.id, simulation_id: simulation.body.id },
      });
      if (loan.status === 201) loans.push(loan.body.id);
    } else if (a.kind === 'sign') {
      const id = loans[a.loan % Math.max(loans.length, 1)];
      if (id) await sandbox.request('POST', `/v3/sandbox/loans/${id}/sign`);
    } else {
      await sandbox.request('POST', '/v3/sandbox/clock/advance', { body: { by: a.by } });
    }
  }
}

describe('webhook order without chaos', () => {
  it('every endpoint receives its events once each, in event-log order, over random journeys', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(action, { minLength: 3, maxLength: 14 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 16 }),
        async (actions, latencies) => {
          const receiver = healthyReceiver(latencies);
          const sandbox = createTestSandbox({}, { webhookSender: receiver.send });
          try {
            for (const [i, events] of ENDPOINTS.entries()) {
              const res = await sandbox.request('POST', '/v3/webhooks/endpoints', {
                body: { url: `https://receiver.test/${i}`, events },
              });
              expect(res.status).toBe(201);
            }
            await play(sandbox, actions);
            await sandbox.deps.webhooks.idle();
            const log = sandbox.deps.store.eventsByPartner.rows(DEFAULT_PARTNER_ID);
            for (const [i, patterns] of ENDPOINTS.entries()) {
              const expected = log.filter((e) => matchesAny(patterns, e.type)).map((e) => e.id);
              expect(receiver.received.get(`https://receiver.test/${i}`) ?? []).toEqual(expected);
            }
          } finally {
            sandbox.deps.engine.stop();
            await sandbox.deps.webhooks.close();
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('webhook order after a failure', () => {
  it('a failed attempt does not hold back later events; its retry arrives when it falls due', async () => {
    const received: string[] = [];
    let calls = 0;
    const send = async (webhook: OutgoingWebhook): Promise<ReceiverAnswer> => {
      calls++;
      received.push(`${webhook.headers['webhook-id']} ${calls === 1 ? 500 : 200}`);
      return { statusCode: calls === 1 ? 500 : 200, retryAfter: null, body: '' };
    };
    const sandbox = createTestSandbox({}, { webhookSender: send });
    try {
      await sandbox.request('POST', '/v3/webhooks/endpoints', {
        body: { url: 'https://receiver.test/hooks' },
      });
      const engine = sandbox.deps.engine;
      const first = engine.emit(DEFAULT_PARTNER_ID, engine.clock(DEFAULT_PARTNER_ID), 'loan.created', {
        ...sampleEventData('loan.created'),
        id: 'ln_1',
      });
      const second = engine.emit(DEFAULT_PARTNER_ID, engine.clock(DEFAULT_PARTNER_ID), 'loan.cancelled', {
        ...sampleEventData('loan.cancelled'),
        id: 'ln_1',
      });
      await sandbox.deps.webhooks.idle();
      expect(received).toEqual([`${first.id} 500`, `${second.id} 200`]);
      await sandbox.request('POST', '/v3/sandbox/clock/advance', { body: { by: '5s' } });
      await sandbox.deps.webhooks.idle();
      expect(received).toEqual([`${first.id} 500`, `${second.id} 200`, `${first.id} 200`]);
    } finally {
      sandbox.deps.engine.stop();
      await sandbox.deps.webhooks.close();
    }
  });
});
