import { describe, expect, it } from 'vitest';
import {
  activeCustomer,
  advanceClock,
  eventsOf,
  MAGIC_CPF,
  type OfferBody,
  offersOf,
  simulate,
  TIER_CPF,
} from '../support/credit.js';
import { CNPJ, createCustomer } from '../support/customers.js';
import { createTestSandbox, newPartnerToken } from '../support/sandbox.js';

const T0 = '2026-03-02T12:00:00.000Z';

describe('credit offers granted at KYC approval', () => {
  it('grants one offer with credit_offer.available right after customer.active', async () => {
    const sandbox = createTestSandbox();
    const customer = await activeCustomer(sandbox, { cpf: TIER_CPF.plus });
    const offers = await offersOf(sandbox, customer.id);
    expect(offers).toEqual([
      {
        id: expect.stringMatching(/^co_[0-9a-f]{32}$/),
        customer_id: customer.id,
        status: 'available',
        approved_amount: '20000.00',
        min_amount: '1000.00',
        interest_rate: 1.79,
        min_installments: 6,
        max_installments: 24,
        due_date_rule: null,
        valid_until: '2026-04-01T12:00:00.000Z',
        created_at: T0,
        updated_at: T0,
      },
    ]);
    const events = await eventsOf(sandbox);
    const active = events.findIndex((e) => e.type === 'customer.active');
    expect(events[active + 1]).toMatchObject({
      type: 'credit_offer.available',
      timestamp: T0,
      data: offers[0],
    });
    expect(events.filter((e) => e.type.startsWith('credit_offer.'))).toHaveLength(1);
  });

  it.each([
    [
      'starter',
      TIER_CPF.starter,
      { approved_amount: '3000.00', installments: 6, interest_rate: 4.49, due_date_rule: null },
    ],
    [
      'premium',
      TIER_CPF.premium,
      {
        approved_amount: '50000.00',
        installments: 24,
        interest_rate: 1.49,
        due_date_rule: 'same_day_next_month',
      },
    ],
  ])('derives the %s tier from the CPF', async (_tier, cpf, terms) => {
    const sandbox = createTestSandbox();
    const customer = await activeCustomer(sandbox, { cpf });
    expect((await offersOf(sandbox, customer.id))[0]).toMatchObject(terms);
  });

  it('gives an MEI a Simples Nacional offer with a fee, and the reduced daily IOF', async () => {
    const sandbox = createTestSandbox();
    // TIER_CPF.plus with a CNPJ falls in mei_essential: 15,000.00, 2.49 %, 12 installments, 1 % fee.
    const customer = await activeCustomer(sandbox, { cpf: TIER_CPF.plus, cnpj: CNPJ.numeric });
    const [offer] = (await offersOf(sandbox, customer.id)) as [OfferBody];
    expect(offer).toMatchObject({
      approved_amount: '15000.00',
      interest_rate: 2.49,
      installments: 12,
      due_date_rule: null,
    });
    const sim = await simulate(sandbox, offer.id, '10000.00', 12);
    expect(sim.fees_amount).toBe('100.00');
    // Simples/MEI: 0.38 % flat + 0.00274 % a day — far below an individual's 0.0082 % a day.
    expect(Number(sim.iof_amount)).toBeGreaterThan(38);
    expect(Number(sim.iof_amount)).toBeLessThan(38 + 10000 * 0.0000274 * 365);
    expect(sim.amount).toBe((10000 - Number(sim.iof_amount) - 100).toFixed(2));
    expect(sim.first_due_date).toBe('2026-04-01');
  });

  it('grants nothing to the no_offer profile; the control endpoint still can', async () => {
    const sandbox = createTestSandbox();
    const customer = await activeCustomer(sandbox, { cpf: MAGIC_CPF.noOffer });
    expect(await offersOf(sandbox, customer.id)).toEqual([]);
    expect(await eventsOf(sandbox, 'credit_offer.*')).toEqual([]);
    const made = await sandbox.json<OfferBody>('POST', `/v3/sandbox/customers/${customer.id}/credit-offers`);
    expect(made.status).toBe(201);
    expect(made.body.status).toBe('available');
    expect(await eventsOf(sandbox, 'credit_offer.available')).toHaveLength(1);
  });

  it('gives the installment_range profile a min/max range and holds simulations to it', async () => {
    const sandbox = createTestSandbox();
    const customer = await activeCustomer(sandbox, { cpf: MAGIC_CPF.installmentRange });
    const [offer] = (await offersOf(sandbox, customer.id)) as [OfferBody];
    expect(offer).not.toHaveProperty('installments');
    expect(offer).toMatchObject({ min_installments: 6, max_installments: 24 });
    for (const count of [6, 13, 24]) {
      expect((await simulate(sandbox, offer.id, '1000.00', count)).number_of_installments).toBe(count);
    }
    for (const count of [5, 25]) {
      const res = await sandbox.json('POST', `/v3/credit-offers/${offer.id}/simulations`, {
        body: { requested_amount: '1000.00', installment_count: count },
      });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'installment_count_out_of_range', param: 'installment_count' });
    }
  });
});

describe('offer expiry', () => {
  it('expires at valid_until with the full offer, and a fresh offer arrives a day later', async () => {
    const sandbox = createTestSandbox();
    const customer = await activeCustomer(sandbox, { cpf: TIER_CPF.standard });
    const [offer] = (await offersOf(sandbox, customer.id)) as [OfferBody];
    await advanceClock(sandbox, { to: '2026-04-01T11:59:59.999Z' });
    expect((await offersOf(sandbox, customer.id, 'available')).map((o) => o.id)).toEqual([offer.id]);
    await advanceClock(sandbox, { to: '2026-04-01T12:00:00.000Z' });
    const expired = { ...offer, status: 'expired', updated_at: '2026-04-01T12:00:00.000Z' };
    expect((await sandbox.json('GET', `/v3/credit-offers/${offer.id}`)).body).toEqual(expired);
    const refused = await sandbox.json('POST', `/v3/credit-offers/${offer.id}/simulations`, {
      body: { requested_amount: '1000.00', installment_count: 12 },
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'credit_offer_expired', param: 'credit_offer_id' });

    await advanceClock(sandbox, { to: '2026-04-02T11:59:59.000Z' });
    expect(await offersOf(sandbox, customer.id, 'available')).toEqual([]);
    await advanceClock(sandbox, { to: '2026-04-02T12:00:00.000Z' });
    const [fresh] = (await offersOf(sandbox, customer.id, 'available')) as [OfferBody];
    expect(fresh).toEqual({
      ...offer,
      id: expect.stringMatching(/^co_/),
      created_at: '2026-04-02T12:00:00.000Z',
      updated_at: '2026-04-02T12:00:00.000Z',
      valid_until: '2026-05-02T12:00:00.000Z',
    });
    expect(fresh.id).not.toBe(offer.id);
    const events = (await eventsOf(sandbox, 'credit_offer.*')).map((e) => [e.type, e.timestamp, e.data]);
    expect(events).toEqual([
      ['credit_offer.available', T0, offer],
      ['credit_offer.expired', '2026-04-01T12:00:00.000Z', expired],
      ['credit_offer.available', '2026-04-02T12:00:00.000Z', fresh],
    ]);
  });

  it('expires on request through the control endpoint, once', async () => {
    const sandbox = createTestSandbox();
    const customer = await activeCustomer(sandbox, { cpf: TIER_CPF.standard });
    const [offer] = (await offersOf(sandbox, customer.id)) as [OfferBody];
    await advanceClock(sandbox, { by: '10m' });
    const res = await sandbox.json('POST', `/v3/sandbox/credit-offers/${offer.id}/expire`);
    expect(res.status).toBe(200);
    // valid_until becomes the moment of expiry: an expired offer never claims a future validity.
    const expired = {
      ...offer,
      status: 'expired',
      valid_until: '2026-03-02T12:10:00.000Z',
      updated_at: '2026-03-02T12:10:00.000Z',
    };
    expect(res.body).toEqual(expired);
    expect((await sandbox.json('GET', `/v3/credit-offers/${offer.id}`)).body).toEqual(expired);
    const [event] = await eventsOf(sandbox, 'credit_offer.expired');
    expect(event?.data).toEqual(expired);
    const again = await sandbox.json('POST', `/v3/sandbox/credit-offers/${offer.id}/expire`);
    expect(again.status).toBe(422);
    expect(again.body).toMatchObject({ code: 'credit_offer_expired' });
    const simulation = await sandbox.json('POST', `/v3/credit-offers/${offer.id}/simulations`, {
      body: { requested_amount: '1000.00', installment_count: 12 },
    });
    expect(simulation.status).toBe(422);
    expect(String(simulation.body.detail)).toContain('expired at 2026-03-02T12:10:00.000Z');
    // The original valid_until passes without a second expiry event (the fresh offer of the next
    // day is valid until 2026-04-02T12:10).
    await advanceClock(sandbox, { by: '30d' });
    const expiries = await eventsOf(sandbox, 'credit_offer.expired');
    expect(expiries.map((e) => e.data.id)).toEqual([offer.id]);
    const available = await eventsOf(sandbox, 'credit_offer.available');
    expect(available.map((e) => e.timestamp)).toEqual([T0, '2026-03-03T12:10:00.000Z']);
  });
});

describe('control: generate an offer', () => {
  it('uses the tier with any terms replaced, and announces it', async () => {
    const sandbox = createTestSandbox();
    const customer = await activeCustomer(sandbox, { cpf: TIER_CPF.standard });
    await advanceClock(sandbox, { by: '1h' });
    const res = await sandbox.json<OfferBody>('POST', `/v3/sandbox/customers/${customer.id}/credit-offers`, {
      body: {
        approved_amount: '7000.00',
        min_installments: 3,
        max_installments: 9,
        due_date_rule: null,
        valid_for_days: 2,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^co_/),
      customer_id: customer.id,
      status: 'available',
      approved_amount: '7000.00',
      min_amount: '500.00',
      interest_rate: 2,
      min_installments: 3,
      max_installments: 9,
      due_date_rule: null,
      valid_until: '2026-03-04T13:00:00.000Z',
      created_at: '2026-03-02T13:00:00.000Z',
      updated_at: '2026-03-02T13:00:00.000Z',
    });
    const available = await eventsOf(sandbox, 'credit_offer.available');
    expect(available.at(-1)?.data).toEqual(res.body);
    expect(await offersOf(sandbox, customer.id, 'available')).toHaveLength(2);
  });

  it.each([
    [{ min_amount: '9000.00', approved_amount: '8000.00' }, 'invalid_offer_terms', 'min_amount'],
    [{ min_installments: 10, max_installments: 4 }, 'invalid_offer_terms', 'min_installments'],
    [{ fee_percentage: 1 }, 'invalid_offer_terms', 'fee_percentage'],
    // Below a hundredth of a percent is still a fee: it must not round away to "0.00".
    [{ fee_percentage: 0.004 }, 'invalid_offer_terms', 'fee_percentage'],
  ])('refuses incoherent terms %j with 422', async (body, code, param) => {
    const sandbox = createTestSandbox();
    const customer = await activeCustomer(sandbox, { cpf: TIER_CPF.standard });
    const res = await sandbox.json('POST', `/v3/sandbox/customers/${customer.id}/credit-offers`, { body });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code, param, errors: [expect.objectContaining({ param })] });
  });

  it('charges the fee percentage exactly as sent (no binary-float rounding)', async () => {
    const sandbox = createTestSandbox();
    const customer = await activeCustomer(sandbox, { cpf: TIER_CPF.plus, cnpj: CNPJ.numeric });
    const res = await sandbox.json<OfferBody>('POST', `/v3/sandbox/customers/${customer.id}/credit-offers`, {
      body: { fee_percentage: 1.005 },
    });
    expect(res.status).toBe(201);
    // 1.005 % of 10,000.00; the float 1.005 is 1.00499999..., which Number#toFixed(2) made 1.00 %.
    expect((await simulate(sandbox, res.body.id, '10000.00', 12)).fees_amount).toBe('100.50');
  });

  it.each([
    [{ installments: 12, min_installments: 6, max_installments: 12 }, 'installments'],
    [{ min_installments: 6 }, 'min_installments'],
    [{ approved_amount: 7000 }, 'approved_amount'],
    [{ interest_rate: '2' }, 'interest_rate'],
    [{ due_date_rule: 'every_friday' }, 'due_date_rule'],
  ])('refuses malformed terms %j with 400', async (body, param) => {
    const sandbox = createTestSandbox();
    const customer = await activeCustomer(sandbox, { cpf: TIER_CPF.standard });
    const res = await sandbox.json('POST', `/v3/sandbox/customers/${customer.id}/credit-offers`, { body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', param });
  });

  it('refuses customers that are not active (422) or unknown (404)', async () => {
    const sandbox = createTestSandbox();
    const pending = await createCustomer(sandbox, { cpf: TIER_CPF.standard });
    const res = await sandbox.json('POST', `/v3/sandbox/customers/${pending.id}/credit-offers`);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'customer_not_active' });
    const missing = await sandbox.json('POST', '/v3/sandbox/customers/cust_nope/credit-offers');
    expect(missing.status).toBe(404);
    expect((await sandbox.json('POST', '/v3/sandbox/credit-offers/co_nope/expire')).status).toBe(404);
  });
});

describe('listing offers', () => {
  async function world() {
    const sandbox = createTestSandbox();
    const a = await activeCustomer(sandbox, { cpf: TIER_CPF.standard });
    await advanceClock(sandbox, { by: '1s' });
    const b = await activeCustomer(sandbox, { cpf: TIER_CPF.starter });
    await advanceClock(sandbox, { by: '1s' });
    await sandbox.json('POST', `/v3/sandbox/customers/${a.id}/credit-offers`);
    const [aLatest, aFirst] = (await offersOf(sandbox, a.id)) as [OfferBody, OfferBody];
    await sandbox.json('POST', `/v3/sandbox/credit-offers/${aFirst.id}/expire`);
    const [bOffer] = (await offersOf(sandbox, b.id)) as [OfferBody];
    return { sandbox, a, b, ids: { aLatest: aLatest.id, aFirst: aFirst.id, b: bOffer.id } };
  }
  const ids = (res: { body: unknown }) => (res.body as { data: OfferBody[] }).data.map((o) => o.id);

  it('lists newest first, filtered by customer and status, in pages', async () => {
    const { sandbox, a, ids: o } = await world();
    expect(ids(await sandbox.json('GET', '/v3/credit-offers'))).toEqual([o.aLatest, o.b, o.aFirst]);
    expect(ids(await sandbox.json('GET', `/v3/credit-offers?customer_id=${a.id}`))).toEqual([
      o.aLatest,
      o.aFirst,
    ]);
    expect(ids(await sandbox.json('GET', '/v3/credit-offers?status=available'))).toEqual([o.aLatest, o.b]);
    expect(ids(await sandbox.json('GET', '/v3/credit-offers?status=expired'))).toEqual([o.aFirst]);
    expect(ids(await sandbox.json('GET', `/v3/credit-offers?customer_id=${a.id}&status=expired`))).toEqual([
      o.aFirst,
    ]);
    expect(ids(await sandbox.json('GET', `/v3/customers/${a.id}/credit-offers?status=available`))).toEqual([
      o.aLatest,
    ]);
    expect(ids(await sandbox.json('GET', '/v3/credit-offers?status=accepted'))).toEqual([]);

    const first = await sandbox.json<{ data: OfferBody[]; has_more: boolean }>(
      'GET',
      '/v3/credit-offers?limit=2',
    );
    expect(first.body.has_more).toBe(true);
    const second = await sandbox.json<{ data: OfferBody[]; has_more: boolean }>(
      'GET',
      `/v3/credit-offers?limit=2&starting_after=${first.body.data[1]?.id}`,
    );
    expect(second.body).toEqual({ data: [expect.objectContaining({ id: o.aFirst })], has_more: false });
  });

  it('answers 400 for bad queries and cursors, 404 for unknown customers and offers', async () => {
    const { sandbox, a, ids: o } = await world();
    for (const query of ['status=open', 'limit=0', 'limit=101', 'limit=x']) {
      const res = await sandbox.json('GET', `/v3/credit-offers?${query}`);
      expect(res.status, query).toBe(400);
    }
    const cursor = await sandbox.json('GET', `/v3/credit-offers?status=expired&starting_after=${o.b}`);
    expect(cursor.status).toBe(400);
    expect(cursor.body).toMatchObject({ code: 'invalid_cursor', param: 'starting_after' });
    const unknown = await sandbox.json('GET', '/v3/credit-offers?customer_id=cust_nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'resource_not_found', param: 'customer_id' });
    expect((await sandbox.json('GET', '/v3/customers/cust_nope/credit-offers')).status).toBe(404);
    expect((await sandbox.json('GET', `/v3/customers/${a.id}/credit-offers?status=x`)).status).toBe(400);
    expect((await sandbox.json('GET', '/v3/credit-offers/co_nope')).status).toBe(404);
  });

  it("never shows another partner's offers or customers", async () => {
    const { sandbox, a, ids: o } = await world();
    const other = await newPartnerToken(sandbox);
    const token = other.token;
    expect((await sandbox.json('GET', '/v3/credit-offers', { token })).body).toEqual({
      data: [],
      has_more: false,
    });
    expect((await sandbox.json('GET', `/v3/credit-offers/${o.aLatest}`, { token })).status).toBe(404);
    expect((await sandbox.json('GET', `/v3/customers/${a.id}/credit-offers`, { token })).status).toBe(404);
    expect((await sandbox.json('GET', `/v3/credit-offers?customer_id=${a.id}`, { token })).status).toBe(404);
    const sim = await sandbox.json('POST', `/v3/credit-offers/${o.aLatest}/simulations`, {
      token,
      body: { requested_amount: '1000.00', installment_count: 12 },
    });
    expect(sim.status).toBe(404);
    expect(
      (await sandbox.json('POST', `/v3/sandbox/credit-offers/${o.aLatest}/expire`, { token })).status,
    ).toBe(404);
    expect(
      (await sandbox.json('POST', `/v3/sandbox/customers/${a.id}/credit-offers`, { token })).status,
    ).toBe(404);
  });
});

describe('the DESIGN reference case through the API', () => {
  it('10,000.00 at 2 % a month in 12 installments from 2029-01-15: 945.60, IOF 205.37, net 9,794.63, CET 32.14 %', async () => {
    const sandbox = createTestSandbox();
    // 2029-01-15 -> 2030-01-15 crosses no 29 February, like 2026-01-15 -> 2027-01-15 (31, 59, …, 365 days).
    await advanceClock(sandbox, { to: '2029-01-15T10:00:00.000Z' });
    const customer = await activeCustomer(sandbox, { cpf: TIER_CPF.standard });
    const [offer] = (await offersOf(sandbox, customer.id)) as [OfferBody];
    const sim = await simulate(sandbox, offer.id, '10000.00', 12);
    expect(sim).toMatchObject({
      requested_amount: '10000.00',
      installments_value: '945.60',
      iof_amount: '205.37',
      fees_amount: '0.00',
      amount: '9794.63',
      interest_amount: '1347.20',
      total_loan_amount: '11347.20',
      interest_percentage: 2,
      cet_percentage: 32.14,
      number_of_installments: 12,
      first_due_date: '2029-02-15',
    });
  });
});

describe('custom offer interest rate bounds', () => {
  it('refuses an interest rate below 0.5 % a month with 400 naming interest_rate', async () => {
    const sandbox = createTestSandbox();
    const customer = await activeCustomer(sandbox, { cpf: TIER_CPF.standard });
    for (const interest_rate of [0, 0.1, 0.49]) {
      const res = await sandbox.json('POST', `/v3/sandbox/customers/${customer.id}/credit-offers`, {
        body: { interest_rate },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'validation_failed', param: 'interest_rate' });
    }
    const ok = await sandbox.json('POST', `/v3/sandbox/customers/${customer.id}/credit-offers`, {
      body: { interest_rate: 0.5 },
    });
    expect(ok.status).toBe(201);
  });
});
