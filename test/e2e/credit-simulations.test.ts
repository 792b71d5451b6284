import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SIMULATIONS_KEPT, simulationsKept } from '../../src/domain/credit/simulations.js';
import {
  activeCustomer,
  createLoan,
  type OfferBody,
  offersOf,
  type SimulationBody,
  simulate,
  TIER_CPF,
} from '../support/credit.js';
import { createTestSandbox, type TestSandbox } from '../support/sandbox.js';

async function standardOffer(sandbox: TestSandbox): Promise<OfferBody> {
  const customer = await activeCustomer(sandbox, { cpf: TIER_CPF.standard });
  return (await offersOf(sandbox, customer.id))[0] as OfferBody;
}

describe('POST /v3/credit-offers/{id}/simulations', () => {
  it('answers 201 with every Simulation field, dated by the partner clock', async () => {
    const sandbox = createTestSandbox();
    const offer = await standardOffer(sandbox);
    const res = await sandbox.json<SimulationBody>('POST', `/v3/credit-offers/${offer.id}/simulations`, {
      body: { requested_amount: '500.00', installment_count: 12 },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'id',
        'credit_offer_id',
        'requested_amount',
        'amount',
        'interest_amount',
        'fees_amount',
        'iof_amount',
        'total_loan_amount',
        'interest_percentage',
        'cet_percentage',
        'number_of_installments',
        'installments_value',
        'first_due_date',
        'created_at',
      ].sort(),
    );
    const s = res.body;
    const cents = (v: string) => Math.round(Number(v) * 100);
    expect(cents(s.total_loan_amount)).toBe(12 * cents(s.installments_value));
    expect(cents(s.amount) + cents(s.fees_amount) + cents(s.iof_amount)).toBe(cents(s.requested_amount));
    expect(cents(s.total_loan_amount)).toBe(
      cents(s.amount) + cents(s.interest_amount) + cents(s.fees_amount) + cents(s.iof_amount),
    );
    expect(s.cet_percentage).toBeGreaterThan((1.02 ** 12 - 1) * 100);
  });

  it.each([
    ['no body fields', {}, 'requested_amount'],
    ['a number amount', { requested_amount: 1000, installment_count: 12 }, 'requested_amount'],
    ['three decimals', { requested_amount: '1000.000', installment_count: 12 }, 'requested_amount'],
    ['a leading zero', { requested_amount: '01000.00', installment_count: 12 }, 'requested_amount'],
    ['a trailing dot', { requested_amount: '1000.', installment_count: 12 }, 'requested_amount'],
    ['an exponent', { requested_amount: '1e3', installment_count: 12 }, 'requested_amount'],
    ['a negative amount', { requested_amount: '-1000.00', installment_count: 12 }, 'requested_amount'],
    ['a comma', { requested_amount: '1000,00', installment_count: 12 }, 'requested_amount'],
    ['a missing count', { requested_amount: '1000.00' }, 'installment_count'],
    ['a string count', { requested_amount: '1000.00', installment_count: '12' }, 'installment_count'],
    ['a fractional count', { requested_amount: '1000.00', installment_count: 12.5 }, 'installment_count'],
  ])('answers 400 for %s', async (_name, body, param) => {
    const sandbox = createTestSandbox();
    const offer = await standardOffer(sandbox);
    const res = await sandbox.json('POST', `/v3/credit-offers/${offer.id}/simulations`, { body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', param });
    expect((res.body as { errors: { param: string }[] }).errors.map((e) => e.param)).toContain(param);
  });

  it('answers 400 for a body that is not JSON', async () => {
    const sandbox = createTestSandbox();
    const offer = await standardOffer(sandbox);
    const res = await sandbox.json('POST', `/v3/credit-offers/${offer.id}/simulations`, {
      body: '{"requested',
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'malformed_json' });
  });

  it.each([
    ['below min_amount', '499.99', 12, ['requested_amount']],
    ['above approved_amount', '10000.01', 12, ['requested_amount']],
    ['zero', '0.00', 12, ['requested_amount']],
    ['a count the offer does not have', '1000.00', 6, ['installment_count']],
    ['a zero count', '1000.00', 0, ['installment_count']],
    ['both outside', '20000.00', 24, ['requested_amount', 'installment_count']],
  ])('answers 422 for an amount/count %s', async (_name, requested_amount, installment_count, params) => {
    const sandbox = createTestSandbox();
    const offer = await standardOffer(sandbox);
    const res = await sandbox.json<{
      code: string;
      param: string;
      errors: { param: string; code: string }[];
    }>('POST', `/v3/credit-offers/${offer.id}/simulations`, {
      body: { requested_amount, installment_count },
    });
    expect(res.status).toBe(422);
    expect(res.body.param).toBe(params[0]);
    expect(res.body.errors.map((e) => e.param)).toEqual(params);
    expect(res.body.code).toBe(
      params[0] === 'requested_amount' ? 'amount_out_of_range' : 'installment_count_out_of_range',
    );
  });

  it('accepts both bounds of the offer', async () => {
    const sandbox = createTestSandbox();
    const offer = await standardOffer(sandbox);
    expect((await simulate(sandbox, offer.id, '500.00', 12)).requested_amount).toBe('500.00');
    expect((await simulate(sandbox, offer.id, '10000.00', 12)).requested_amount).toBe('10000.00');
  });

  it.each([
    ['5000', '5000.00'],
    ['1000.5', '1000.50'],
    ['1000.0', '1000.00'],
    ['2500.25', '2500.25'],
  ])('accepts requested_amount %s with fewer places and answers it normalized (%s)', async (sent, shown) => {
    const sandbox = createTestSandbox();
    const offer = await standardOffer(sandbox);
    const lenient = await simulate(sandbox, offer.id, sent, 12);
    expect(lenient.requested_amount).toBe(shown);
    const strict = await simulate(sandbox, offer.id, shown, 12);
    expect({ ...lenient, id: '', created_at: '' }).toEqual({ ...strict, id: '', created_at: '' });
  });

  it('says so when requested_amount has more than 2 decimal places', async () => {
    const sandbox = createTestSandbox();
    const offer = await standardOffer(sandbox);
    const res = await sandbox.json<{ errors: { param: string; detail: string }[] }>(
      'POST',
      `/v3/credit-offers/${offer.id}/simulations`,
      { body: { requested_amount: '1000.505', installment_count: 12 } },
    );
    expect(res.status).toBe(400);
    expect(res.body.errors[0]?.param).toBe('requested_amount');
    expect(res.body.errors[0]?.detail).toContain('more than 2 decimal places');
  });

  it('answers 422 naming why when the offer is not available', async () => {
    const sandbox = createTestSandbox();
    const offer = await standardOffer(sandbox);
    const sim = await simulate(sandbox, offer.id, '1000.00', 12);
    await createLoan(sandbox, offer.id, sim.id);
    const accepted = await sandbox.json('POST', `/v3/credit-offers/${offer.id}/simulations`, {
      body: { requested_amount: '1000.00', installment_count: 12 },
    });
    expect(accepted.status).toBe(422);
    expect(accepted.body).toMatchObject({ code: 'credit_offer_already_accepted', param: 'credit_offer_id' });
  });

  it('answers 404 for an unknown offer', async () => {
    const sandbox = createTestSandbox();
    const res = await sandbox.json('POST', '/v3/credit-offers/co_nope/simulations', {
      body: { requested_amount: '1000.00', installment_count: 12 },
    });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'resource_not_found' });
  });

  it('replays the first response for the same Idempotency-Key', async () => {
    const sandbox = createTestSandbox();
    const offer = await standardOffer(sandbox);
    const send = (amount: string) =>
      sandbox.json<SimulationBody>('POST', `/v3/credit-offers/${offer.id}/simulations`, {
        headers: { 'idempotency-key': 'sim-1' },
        body: { requested_amount: amount, installment_count: 12 },
      });
    const first = await send('1000.00');
    const replay = await send('2000.00');
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    // The replayed simulation is still the latest: it can be contracted.
    expect((await createLoan(sandbox, offer.id, first.body.id)).simulation_id).toBe(first.body.id);
  });
});

describe('simulations kept by their terms', () => {
  it('answers a repeated simulation as a fresh one (new id, same figures) and keeps a bounded number', async () => {
    const sandbox = createTestSandbox();
    const offer = await standardOffer(sandbox);
    const body = { requested_amount: '750.00', installment_count: 12 };
    const path = `/v3/credit-offers/${offer.id}/simulations`;
    const first = await sandbox.json<SimulationBody>('POST', path, { body });
    const again = await sandbox.json<SimulationBody>('POST', path, { body });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(first.body.id);
    const figures = ({ id: _id, ...rest }: SimulationBody) => rest;
    expect(figures(again.body)).toEqual(figures(first.body));
    for (let cents = 0; cents < SIMULATIONS_KEPT + 20; cents += 1) {
      const amount = (500 + cents / 100).toFixed(2);
      const res = await sandbox.json('POST', path, {
        body: { requested_amount: amount, installment_count: 12 },
      });
      expect(res.status).toBe(201);
    }
    expect(simulationsKept()).toBe(SIMULATIONS_KEPT);
  });
});

describe('docs/credit.md: how total_loan_amount reads', () => {
  it('answers every value of the worked example, and the parts add up to total_loan_amount', async () => {
    const doc = readFileSync(new URL('../../docs/credit.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf('### How `total_loan_amount` reads'));
    // `| \`field\` | value | … |` rows of the example's table.
    const documented = Object.fromEntries(
      [...section.matchAll(/^\| `(\w+)` \| ([\d.]+) \|/gm)].map((m) => [m[1], m[2]]),
    ) as Record<string, string>;
    expect(Object.keys(documented)).toHaveLength(8);

    const sandbox = createTestSandbox(); // the partner clock reads 2026-03-02
    const customer = await activeCustomer(sandbox, { cpf: '12345600110', cnpj: '11222333000181' });
    const offer = (await offersOf(sandbox, customer.id))[0] as OfferBody;
    expect(offer).toMatchObject({ interest_rate: 2.49, installments: 12 });
    const simulation = await simulate(sandbox, offer.id, '10000.00', 12);
    expect(simulation.first_due_date).toBe('2026-04-01');
    for (const [field, value] of Object.entries(documented)) {
      expect(String(simulation[field as keyof SimulationBody]), field).toBe(value);
    }
    const cents = (field: keyof SimulationBody) => Math.round(Number(simulation[field]) * 100);
    expect(cents('amount') + cents('interest_amount') + cents('fees_amount') + cents('iof_amount')).toBe(
      cents('total_loan_amount'),
    );
    expect(12 * cents('installments_value')).toBe(cents('total_loan_amount'));
  });
});

describe('garbage bodies never cause a 5xx', () => {
  const anyJson = fc.oneof(
    fc.jsonValue(),
    fc.record(
      {
        requested_amount: fc.oneof(
          fc.string(),
          fc.double(),
          fc.constantFrom('0.00', '500.00', '99999999999.99', '1.00'),
        ),
        installment_count: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(12)),
        credit_offer_id: fc.oneof(fc.string(), fc.integer()),
        simulation_id: fc.oneof(fc.string(), fc.constant(null)),
        installments: fc.oneof(fc.integer(), fc.string()),
        installments_value: fc.oneof(fc.string(), fc.constant('945.60')),
        first_due_date: fc.oneof(fc.string(), fc.constant('2026-02-30')),
      },
      { requiredKeys: [] },
    ),
  );

  it('on simulations and loans', async () => {
    const sandbox = createTestSandbox();
    const offer = await standardOffer(sandbox);
    const sim = await simulate(sandbox, offer.id, '1000.00', 12);
    await fc.assert(
      fc.asyncProperty(anyJson, fc.boolean(), async (body, useRealIds) => {
        const loanBody =
          useRealIds && body !== null && typeof body === 'object' && !Array.isArray(body)
            ? { credit_offer_id: offer.id, simulation_id: sim.id, ...body }
            : body;
        for (const [path, payload] of [
          [`/v3/credit-offers/${offer.id}/simulations`, body],
          ['/v3/loans', loanBody],
        ] as const) {
          const res = await sandbox.request('POST', path, { body: JSON.stringify(payload) });
          expect(res.status, `${path} ${JSON.stringify(payload)}`).toBeLessThan(500);
          if (res.status >= 400) {
            expect(res.headers.get('content-type')).toBe('application/problem+json');
            const problem = (await res.json()) as { status: number; code: string };
            expect(problem.status).toBe(res.status);
          } else {
            await res.text();
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('unknown fields', () => {
  it('are refused with 400 so typos do not pass silently', async () => {
    const sandbox = createTestSandbox();
    const offer = await standardOffer(sandbox);
    const sim = await sandbox.json('POST', `/v3/credit-offers/${offer.id}/simulations`, {
      body: { requested_amount: '1000.00', installment_count: 12, installments: 12 },
    });
    expect(sim.status).toBe(400);
    expect(sim.body).toMatchObject({ code: 'validation_failed' });
    const s = await simulate(sandbox, offer.id, '1000.00', 12);
    const loan = await sandbox.json('POST', '/v3/loans', {
      body: { credit_offer_id: offer.id, simulation_id: s.id, first_due_dat: '2026-04-02' },
    });
    expect(loan.status).toBe(400);
    expect(JSON.stringify(loan.body)).toContain('first_due_dat');
  });
});
