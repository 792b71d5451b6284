import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import {
  activeCustomer,
  advanceClock,
  createLoan,
  eventsOf,
  getLoan,
  type LoanBody,
  type OfferBody,
  offersOf,
  simulate,
  TIER_CPF,
  transactionsOf,
} from '../support/credit.js';
import { createTestSandbox, newPartnerToken, type TestSandbox } from '../support/sandbox.js';

interface Problem {
  status: number;
  code: string;
  param?: string;
  detail: string;
  errors?: { param: string; code?: string }[];
}

async function offerAndSimulation(sandbox: TestSandbox, cpf: string = TIER_CPF.standard) {
  const customer = await activeCustomer(sandbox, { cpf });
  const offer = (await offersOf(sandbox, customer.id))[0] as OfferBody;
  const sim = await simulate(sandbox, offer.id, '1000.00', offer.installments ?? offer.min_installments ?? 1);
  return { customer, offer, sim };
}

/** A loan taken to `active` (signed by the control endpoint). */
async function activeLoan(sandbox: TestSandbox, cpf: string = TIER_CPF.standard) {
  const { customer, offer, sim } = await offerAndSimulation(sandbox, cpf);
  const loan = await createLoan(sandbox, offer.id, sim.id);
  await advanceClock(sandbox, { by: '3s' });
  expect((await sandbox.json('POST', `/v3/sandbox/loans/${loan.id}/sign`)).status).toBe(200);
  await advanceClock(sandbox, { by: '5s' });
  return { customer, offer, sim, loan: await getLoan(sandbox, loan.id) };
}

const post = (sandbox: TestSandbox, path: string, body?: unknown) =>
  sandbox.json<Problem>('POST', path, body === undefined ? {} : { body });

describe('POST /v3/loans refusals', () => {
  it.each([
    ['no simulation_id', { simulation_id: undefined }, 'simulation_id'],
    ['no credit_offer_id', { credit_offer_id: undefined }, 'credit_offer_id'],
    ['a numeric offer id', { credit_offer_id: 42 }, 'credit_offer_id'],
    ['a string installments', { installments: '12' }, 'installments'],
    ['a malformed installments_value', { installments_value: '945.6' }, 'installments_value'],
    ['a malformed first_due_date', { first_due_date: '02/04/2026' }, 'first_due_date'],
  ])('answers 400 for %s', async (_name, change, param) => {
    const sandbox = createTestSandbox();
    const { offer, sim } = await offerAndSimulation(sandbox);
    const body = { credit_offer_id: offer.id, simulation_id: sim.id, ...change };
    const res = await post(sandbox, '/v3/loans', body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', param });
  });

  it('answers 404 naming the unknown offer or simulation', async () => {
    const sandbox = createTestSandbox();
    const { offer, sim } = await offerAndSimulation(sandbox);
    const noOffer = await post(sandbox, '/v3/loans', { credit_offer_id: 'co_nope', simulation_id: sim.id });
    expect(noOffer.status).toBe(404);
    expect(noOffer.body).toMatchObject({ code: 'resource_not_found', param: 'credit_offer_id' });
    const noSim = await post(sandbox, '/v3/loans', { credit_offer_id: offer.id, simulation_id: 'sim_nope' });
    expect(noSim.status).toBe(404);
    expect(noSim.body).toMatchObject({ code: 'resource_not_found', param: 'simulation_id' });
    const other = await newPartnerToken(sandbox);
    const foreign = await sandbox.json<Problem>('POST', '/v3/loans', {
      token: other.token,
      body: { credit_offer_id: offer.id, simulation_id: sim.id },
    });
    expect(foreign.status).toBe(404);
  });

  it('answers 422 for a simulation of another offer', async () => {
    const sandbox = createTestSandbox();
    const a = await offerAndSimulation(sandbox);
    const b = await offerAndSimulation(sandbox, TIER_CPF.starter);
    const res = await post(sandbox, '/v3/loans', { credit_offer_id: a.offer.id, simulation_id: b.sim.id });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'simulation_offer_mismatch', param: 'simulation_id' });
  });

  it('answers 422 when terms sent differ from the simulation, listing each', async () => {
    const sandbox = createTestSandbox();
    const { offer, sim } = await offerAndSimulation(sandbox);
    const res = await post(sandbox, '/v3/loans', {
      credit_offer_id: offer.id,
      simulation_id: sim.id,
      installments: 11,
      installments_value: '1.00',
      first_due_date: '2026-04-03',
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('loan_terms_mismatch');
    expect(res.body.errors?.map((e) => e.param)).toEqual([
      'installments',
      'installments_value',
      'first_due_date',
    ]);
    // Nothing was created and the offer is still available.
    expect((await sandbox.json<{ data: unknown[] }>('GET', '/v3/loans')).body.data).toEqual([]);
    expect((await sandbox.json<OfferBody>('GET', `/v3/credit-offers/${offer.id}`)).body.status).toBe(
      'available',
    );
  });

  it('answers 422 for an accepted offer and for an expired one', async () => {
    const sandbox = createTestSandbox();
    const { offer, sim } = await offerAndSimulation(sandbox);
    await createLoan(sandbox, offer.id, sim.id);
    const twice = await post(sandbox, '/v3/loans', { credit_offer_id: offer.id, simulation_id: sim.id });
    expect(twice.status).toBe(422);
    expect(twice.body).toMatchObject({ code: 'credit_offer_already_accepted', param: 'credit_offer_id' });

    const other = await offerAndSimulation(sandbox, TIER_CPF.starter);
    await advanceClock(sandbox, { by: '30d' });
    const late = await post(sandbox, '/v3/loans', {
      credit_offer_id: other.offer.id,
      simulation_id: other.sim.id,
    });
    expect(late.status).toBe(422);
    expect(late.body).toMatchObject({ code: 'credit_offer_expired', param: 'credit_offer_id' });
  });
});

describe('reading loans', () => {
  it('lists newest first with customer and status filters, and pages', async () => {
    const sandbox = createTestSandbox();
    const first = await activeLoan(sandbox, TIER_CPF.standard);
    await advanceClock(sandbox, { by: '1m' });
    const second = await offerAndSimulation(sandbox, TIER_CPF.starter);
    const processing = await createLoan(sandbox, second.offer.id, second.sim.id);
    const ids = async (query: string) =>
      (await sandbox.json<{ data: LoanBody[] }>('GET', `/v3/loans${query}`)).body.data.map((l) => l.id);
    expect(await ids('')).toEqual([processing.id, first.loan.id]);
    expect(await ids('?status=active')).toEqual([first.loan.id]);
    expect(await ids('?status=processing')).toEqual([processing.id]);
    expect(await ids(`?customer_id=${second.customer.id}`)).toEqual([processing.id]);
    expect(await ids(`?customer_id=${second.customer.id}&status=active`)).toEqual([]);
    const page = await sandbox.json<{ data: LoanBody[]; has_more: boolean }>('GET', '/v3/loans?limit=1');
    expect(page.body).toMatchObject({ data: [{ id: processing.id }], has_more: true });
    expect(await ids(`?limit=1&starting_after=${processing.id}`)).toEqual([first.loan.id]);

    expect((await sandbox.json('GET', '/v3/loans?status=open')).status).toBe(400);
    expect((await sandbox.json('GET', '/v3/loans?customer_id=cust_nope')).status).toBe(404);
    const cursor = await sandbox.json<Problem>(
      'GET',
      `/v3/loans?status=active&starting_after=${processing.id}`,
    );
    expect(cursor.body).toMatchObject({ code: 'invalid_cursor', param: 'starting_after' });
  });

  it('pages transactions by installment number and hides other partners', async () => {
    const sandbox = createTestSandbox();
    const { loan } = await activeLoan(sandbox);
    const page = await sandbox.json<{
      data: { installment_number: number; id: string }[];
      has_more: boolean;
    }>('GET', `/v3/loans/${loan.id}/transactions?limit=5`);
    expect(page.body.data.map((t) => t.installment_number)).toEqual([1, 2, 3, 4, 5]);
    expect(page.body.has_more).toBe(true);
    const next = await sandbox.json<{ data: { installment_number: number }[] }>(
      'GET',
      `/v3/loans/${loan.id}/transactions?limit=5&starting_after=${page.body.data[4]?.id}`,
    );
    expect(next.body.data.map((t) => t.installment_number)).toEqual([6, 7, 8, 9, 10]);
    expect(
      (await sandbox.json('GET', `/v3/loans/${loan.id}/transactions?starting_after=tx_nope`)).status,
    ).toBe(400);
    expect((await sandbox.json('GET', '/v3/loans/ln_nope')).status).toBe(404);
    expect((await sandbox.json('GET', '/v3/loans/ln_nope/transactions')).status).toBe(404);

    const other = await newPartnerToken(sandbox);
    const token = other.token;
    expect((await sandbox.json('GET', `/v3/loans/${loan.id}`, { token })).status).toBe(404);
    expect((await sandbox.json('GET', `/v3/loans/${loan.id}/transactions`, { token })).status).toBe(404);
    expect((await sandbox.json('GET', '/v3/loans', { token })).body).toEqual({ data: [], has_more: false });
    for (const action of ['sign', 'decline', 'cancel']) {
      expect((await sandbox.json('POST', `/v3/sandbox/loans/${loan.id}/${action}`, { token })).status).toBe(
        404,
      );
    }
    const pay = await sandbox.json('POST', `/v3/sandbox/loans/${loan.id}/payments`, {
      token,
      body: { amount: '1.00' },
    });
    expect(pay.status).toBe(404);
  });
});

describe('control moves', () => {
  it('refuses moves the state machine does not allow with 409', async () => {
    const sandbox = createTestSandbox();
    const { offer, sim } = await offerAndSimulation(sandbox);
    const loan = await createLoan(sandbox, offer.id, sim.id);
    for (const action of ['sign', 'decline']) {
      const res = await post(sandbox, `/v3/sandbox/loans/${loan.id}/${action}`);
      expect(res.status, action).toBe(409);
      expect(res.body.code).toBe('invalid_loan_transition');
      expect(res.body.detail).toContain('processing');
    }
    const stage = await post(sandbox, `/v3/sandbox/loans/${loan.id}/fail`, { stage: 'disbursement' });
    expect(stage.status).toBe(409);
    expect(stage.body).toMatchObject({ code: 'invalid_loan_transition', param: 'stage' });
    const bad = await post(sandbox, `/v3/sandbox/loans/${loan.id}/fail`, { stage: 'signature' });
    expect(bad.status).toBe(400);
    expect((await post(sandbox, '/v3/sandbox/loans/ln_nope/sign')).status).toBe(404);
  });

  it('cancels before active; later jobs do not move a cancelled loan; a fresh offer follows', async () => {
    const sandbox = createTestSandbox();
    const { customer, offer, sim } = await offerAndSimulation(sandbox);
    const loan = await createLoan(sandbox, offer.id, sim.id);
    await advanceClock(sandbox, { by: '2s' });
    const cancelled = await sandbox.json<LoanBody>('POST', `/v3/sandbox/loans/${loan.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({
      status: 'cancelled',
      cancelled_at: '2026-03-02T12:00:02.000Z',
      ccb_number: expect.stringMatching(/^CCB-/),
      signing_url: null,
    });
    await advanceClock(sandbox, { by: '1m' });
    expect((await getLoan(sandbox, loan.id)).status).toBe('cancelled');
    const again = await post(sandbox, `/v3/sandbox/loans/${loan.id}/cancel`);
    expect(again.status).toBe(409);
    const events = await eventsOf(sandbox, 'loan.*');
    expect(events.map((e) => e.type)).toEqual(['loan.created', 'loan.contract_generated', 'loan.cancelled']);
    expect(events[2]?.data).toEqual({ ...cancelled.body, reason: 'cancelled' });
    expect((await sandbox.json<OfferBody>('GET', `/v3/credit-offers/${offer.id}`)).body.status).toBe(
      'accepted',
    );
    await advanceClock(sandbox, { by: '1d' });
    expect(await offersOf(sandbox, customer.id, 'available')).toHaveLength(1);
  });

  it('cannot cancel an active loan', async () => {
    const sandbox = createTestSandbox();
    const { loan } = await activeLoan(sandbox);
    const res = await post(sandbox, `/v3/sandbox/loans/${loan.id}/cancel`);
    expect(res.status).toBe(409);
    expect(res.body.detail).toContain('active');
  });

  // [stage, status it fails from, error code, seconds after creation, signed by control first]
  it.each([
    ['contract', 'processing', 'contract_generation_failed', 0, false],
    ['contract', 'contract_generated', 'contract_generation_failed', 2, false],
    ['disbursement', 'signed', 'disbursement_failed', 3, true],
    ['disbursement', 'disbursing', 'disbursement_failed', 5, true],
  ] as const)(
    'fails the %s stage while %s with %s and loan.error',
    async (stage, from, code, seconds, sign) => {
      const sandbox = createTestSandbox();
      const { offer, sim } = await offerAndSimulation(sandbox);
      const loan = await createLoan(sandbox, offer.id, sim.id);
      await advanceClock(sandbox, { by: `${sign ? 3 : seconds}s` });
      if (sign) {
        await post(sandbox, `/v3/sandbox/loans/${loan.id}/sign`);
        await advanceClock(sandbox, { by: `${seconds - 3}s` });
      }
      expect((await getLoan(sandbox, loan.id)).status).toBe(from);
      const res = await sandbox.json<LoanBody>('POST', `/v3/sandbox/loans/${loan.id}/fail`, {
        body: { stage },
      });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('error');
      expect(res.body.error).toEqual({ code, message: expect.stringContaining('Contact support') });
      const events = await eventsOf(sandbox, 'loan.error');
      expect(events.map((e) => e.data)).toEqual([res.body]);
      await advanceClock(sandbox, { by: '1m' });
      expect((await getLoan(sandbox, loan.id)).status).toBe('error');
      expect(await transactionsOf(sandbox, loan.id)).toEqual([]);
    },
  );
});

describe('payments refusals and partial payments', () => {
  it('refuses payments to loans that are not active', async () => {
    const sandbox = createTestSandbox();
    const { offer, sim } = await offerAndSimulation(sandbox);
    const loan = await createLoan(sandbox, offer.id, sim.id);
    const res = await post(sandbox, `/v3/sandbox/loans/${loan.id}/payments`, { amount: '10.00' });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('loan_not_active');
    expect((await post(sandbox, '/v3/sandbox/loans/ln_nope/payments', { amount: '10.00' })).status).toBe(404);
  });

  it.each([
    [{}, 'amount'],
    [{ amount: 10 }, 'amount'],
    [{ amount: '0.00' }, 'amount'],
    [{ amount: '-1.00' }, 'amount'],
    [{ amount: '10.505' }, 'amount'],
    [{ amount: '0' }, 'amount'],
    [{ amount: '10.00', installment_number: 0 }, 'installment_number'],
    [{ amount: '10.00', installment_number: '1' }, 'installment_number'],
  ])('answers 400 for the malformed payment %j', async (body, param) => {
    const sandbox = createTestSandbox();
    const { loan } = await activeLoan(sandbox);
    const res = await post(sandbox, `/v3/sandbox/loans/${loan.id}/payments`, body);
    expect(res.status).toBe(400);
    expect(res.body.param).toBe(param);
  });

  it('refuses overpayment, unknown and paid installments with 422', async () => {
    const sandbox = createTestSandbox();
    const { loan } = await activeLoan(sandbox);
    const value = loan.installments_value;
    const over = await post(sandbox, `/v3/sandbox/loans/${loan.id}/payments`, {
      amount: new Decimal(value).plus('0.01').toFixed(2),
    });
    expect(over.status).toBe(422);
    expect(over.body).toMatchObject({ code: 'payment_exceeds_outstanding', param: 'amount' });
    expect(over.body.detail).toContain(value);
    const missing = await post(sandbox, `/v3/sandbox/loans/${loan.id}/payments`, {
      amount: '1.00',
      installment_number: 13,
    });
    expect(missing.status).toBe(422);
    expect(missing.body).toMatchObject({ code: 'installment_not_found', param: 'installment_number' });
    expect(
      (await post(sandbox, `/v3/sandbox/loans/${loan.id}/payments`, { amount: value, installment_number: 2 }))
        .status,
    ).toBe(200);
    const paid = await post(sandbox, `/v3/sandbox/loans/${loan.id}/payments`, {
      amount: '1.00',
      installment_number: 2,
    });
    expect(paid.status).toBe(422);
    expect(paid.body).toMatchObject({ code: 'installment_already_paid', param: 'installment_number' });
    // Without a number the oldest open installment (1) takes the payment.
    const oldest = await sandbox.json<{ installment_number: number }>(
      'POST',
      `/v3/sandbox/loans/${loan.id}/payments`,
      {
        body: { amount: '1.00' },
      },
    );
    expect(oldest.body.installment_number).toBe(1);
  });

  it('accepts an amount with fewer than 2 places and answers it normalized', async () => {
    const sandbox = createTestSandbox();
    const { loan } = await activeLoan(sandbox);
    const res = await post(sandbox, `/v3/sandbox/loans/${loan.id}/payments`, { amount: '10.5' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ amount: '10.50', installment_number: 1 });
  });

  it('keeps a partial payment as partially_paid, then overdue on the rest', async () => {
    const sandbox = createTestSandbox();
    const { loan } = await activeLoan(sandbox);
    const res = await sandbox.json<{ transaction: Record<string, unknown> }>(
      'POST',
      `/v3/sandbox/loans/${loan.id}/payments`,
      { body: { amount: '40.00' } },
    );
    const rest = new Decimal(loan.installments_value).minus('40.00').toFixed(2);
    expect(res.body.transaction).toMatchObject({
      installment_number: 1,
      status: 'partially_paid',
      amount_paid: '40.00',
      amount_outstanding: rest,
      paid_at: null,
    });
    // 23:59:59 São Paulo time on the due date (a business day: payable until then).
    const lastSecond = new Date(Date.parse(`${loan.first_due_date}T23:59:59-03:00`)).toISOString();
    await advanceClock(sandbox, { to: lastSecond });
    expect((await transactionsOf(sandbox, loan.id))[0]?.status).toBe('partially_paid');
    await advanceClock(sandbox, { by: '1s' });
    const [tx] = await transactionsOf(sandbox, loan.id);
    const fine = new Decimal(rest).mul('0.02').toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
    expect(tx).toMatchObject({ status: 'overdue', days_overdue: 1, amount_paid: '40.00' });
    expect(tx?.late_charges.fine).toBe(fine);
  });
});
