import { expect } from 'vitest';
import {
  activeCustomer,
  advanceClock,
  createLoan,
  eventsOf,
  getLoan,
  type OfferBody,
  offersOf,
  simulate,
  TIER_CPF,
  transactionsOf,
} from '../../support/credit.js';
import type { TestSandbox } from '../../support/sandbox.js';
import { createEndpoint } from '../../support/webhooks.js';
import { httpSandbox } from './http-sandbox.js';

/** A new isolated partner, created through `api` (any partner's client), as its own client. */
export async function newPartner(
  api: TestSandbox,
  baseUrl: () => string,
  name: string,
): Promise<TestSandbox> {
  const created = await api.json<{ client_id: string; client_secret: string }>(
    'POST',
    '/v3/sandbox/partners',
    {
      body: { name },
    },
  );
  if (created.status !== 201) throw new Error(`partner creation failed: ${JSON.stringify(created.body)}`);
  return httpSandbox(baseUrl, created.body.client_id, created.body.client_secret);
}

/** What a journey leaves behind, to compare between runs (ids and times differ, the story not). */
export interface JourneyResult {
  eventIds: string[];
  eventTypes: string[];
  loanStatus: string;
  paidInstallments: number;
}

/**
 * The whole partner journey: a webhook endpoint, a customer through KYC to active, an offer,
 * a simulation, a loan signed and disbursed, the first installment paid.
 */
export async function journey(api: TestSandbox, receiverUrl: string): Promise<JourneyResult> {
  await createEndpoint(api, { url: receiverUrl });
  const customer = await activeCustomer(api, { cpf: TIER_CPF.standard });
  const offer = (await offersOf(api, customer.id))[0] as OfferBody;
  const sim = await simulate(api, offer.id, '2000.00', 12);
  const loan = await createLoan(api, offer.id, sim.id);
  await advanceClock(api, { by: '3s' });
  expect((await api.json('POST', `/v3/sandbox/loans/${loan.id}/sign`)).status).toBe(200);
  await advanceClock(api, { by: '5s' });
  const active = await getLoan(api, loan.id);
  expect(active.status).toBe('active');
  const paid = await api.json('POST', `/v3/sandbox/loans/${loan.id}/payments`, {
    body: { amount: active.installments_value },
  });
  expect(paid.status).toBe(200);
  const transactions = await transactionsOf(api, loan.id);
  const events = await eventsOf(api);
  return {
    eventIds: events.map((e) => e.id),
    eventTypes: events.map((e) => e.type),
    loanStatus: (await getLoan(api, loan.id)).status,
    paidInstallments: transactions.filter((t) => t.status === 'paid').length,
  };
}

/** Resolves when `check` holds, polling a real process's progress; fails after `timeoutMs`. */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
