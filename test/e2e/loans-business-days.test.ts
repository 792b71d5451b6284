import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import {
  activeCustomer,
  advanceClock,
  createLoan,
  getLoan,
  type OfferBody,
  offersOf,
  simulate,
  transactionsOf,
} from '../support/credit.js';
import { createTestSandbox, type TestSandbox } from '../support/sandbox.js';

// The test sandbox starts at 2026-03-02 12:00 UTC. The holiday magic profile's simulation on that
// date puts the first due date on the first weekday holiday 30+ days ahead: Good Friday 2026-04-03.
// Payable until the next business day: Monday 2026-04-06 (stated by hand, not computed).
const HOLIDAY_CPF = '00000001082';
const GOOD_FRIDAY = '2026-04-03';
const MONDAY_AFTER = '2026-04-06';

async function activeHolidayLoan(sandbox: TestSandbox) {
  const customer = await activeCustomer(sandbox, { cpf: HOLIDAY_CPF });
  const offer = (await offersOf(sandbox, customer.id))[0] as OfferBody;
  const sim = await simulate(sandbox, offer.id, offer.min_amount, offer.installments ?? 12);
  expect(sim.first_due_date).toBe(GOOD_FRIDAY);
  const loan = await createLoan(sandbox, offer.id, sim.id);
  await advanceClock(sandbox, { by: '3s' });
  expect((await sandbox.json('POST', `/v3/sandbox/loans/${loan.id}/sign`)).status).toBe(200);
  await advanceClock(sandbox, { by: '5s' });
  expect((await getLoan(sandbox, loan.id)).status).toBe('active');
  return loan;
}

async function firstInstallment(sandbox: TestSandbox, loanId: string) {
  return (await transactionsOf(sandbox, loanId))[0] as Awaited<ReturnType<typeof transactionsOf>>[number];
}

async function pay(sandbox: TestSandbox, loanId: string, amount: string) {
  const res = await sandbox.json('POST', `/v3/sandbox/loans/${loanId}/payments`, {
    body: { amount, installment_number: 1 },
  });
  expect(res.status).toBe(200);
}

describe('installments due on a banking holiday', () => {
  it('shows payable_until and takes a payment on the next business day with no late charges', async () => {
    const sandbox = createTestSandbox();
    const loan = await activeHolidayLoan(sandbox);
    const tx = await firstInstallment(sandbox, loan.id);
    expect(tx).toMatchObject({ due_date: GOOD_FRIDAY, payable_until: MONDAY_AFTER, status: 'pending' });

    // Through the holiday and the weekend: still pending on Monday evening.
    await advanceClock(sandbox, { to: `${MONDAY_AFTER}T23:00:00.000Z` });
    expect(await firstInstallment(sandbox, loan.id)).toMatchObject({ status: 'pending', days_overdue: 0 });
    await pay(sandbox, loan.id, tx.amount_due);
    expect(await firstInstallment(sandbox, loan.id)).toMatchObject({
      status: 'paid',
      amount_paid: tx.amount_due,
      days_overdue: 0,
      late_charges: { fine: '0.00', interest: '0.00', total: '0.00' },
    });
  });

  it('is late the day after payable_until, with days_overdue and charges counted from the contractual date', async () => {
    const sandbox = createTestSandbox();
    const loan = await activeHolidayLoan(sandbox);
    const tx = await firstInstallment(sandbox, loan.id);
    // 00:00 São Paulo time (UTC-3) of the day after payable_until.
    await advanceClock(sandbox, { to: '2026-04-07T03:00:00.000Z' });
    const late = await firstInstallment(sandbox, loan.id);
    // 2026-04-03 -> 2026-04-07 is 4 days; fine 2 %, interest 1 % a month pro rata die for 4 days.
    const fine = new Decimal(tx.amount_due).mul('0.02').toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
    const interest = new Decimal(tx.amount_due).mul(4).div(3000).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
    expect(late).toMatchObject({
      status: 'overdue',
      days_overdue: 4,
      late_charges: {
        fine: fine.toFixed(2),
        interest: interest.toFixed(2),
        total: fine.plus(interest).toFixed(2),
      },
      updated_at: '2026-04-07T03:00:00.000Z',
    });
    await pay(sandbox, loan.id, late.amount_outstanding);
    expect(await firstInstallment(sandbox, loan.id)).toMatchObject({ status: 'paid', days_overdue: 0 });
  });
});

describe('GET /v3/sandbox/calendar', () => {
  it('lists weekends and banking holidays of a range', async () => {
    const sandbox = createTestSandbox();
    const res = await sandbox.json('GET', '/v3/sandbox/calendar?from=2026-04-01&to=2026-04-07');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      region: null,
      from: '2026-04-01',
      to: '2026-04-07',
      data: [
        { date: '2026-04-03', kind: 'holiday', name: 'Sexta-Feira Santa' },
        { date: '2026-04-04', kind: 'saturday', name: null },
        { date: '2026-04-05', kind: 'sunday', name: null },
      ],
      has_more: false,
    });
  });

  it('defaults to a year from the partner clock date and adds the state of --holidays-region', async () => {
    const sandbox = createTestSandbox({ holidaysRegion: 'SP' });
    const res = await sandbox.json<{ region: string; from: string; to: string; data: { date: string }[] }>(
      'GET',
      '/v3/sandbox/calendar',
    );
    expect(res.body).toMatchObject({ region: 'SP', from: '2026-03-02', to: '2027-03-02' });
    expect(res.body.data.map((day) => day.date)).toContain('2026-07-09');
  });

  it('answers 400 with the param for a bad date or range', async () => {
    const sandbox = createTestSandbox();
    const bad = await sandbox.json('GET', '/v3/sandbox/calendar?from=2026-02-30');
    expect(bad).toMatchObject({ status: 400, body: { code: 'validation_failed', param: 'from' } });
    const backwards = await sandbox.json('GET', '/v3/sandbox/calendar?from=2026-05-01&to=2026-04-01');
    expect(backwards).toMatchObject({ status: 400, body: { code: 'validation_failed', param: 'to' } });
    const tooLong = await sandbox.json('GET', '/v3/sandbox/calendar?from=2026-01-01&to=2040-01-01');
    expect(tooLong).toMatchObject({ status: 400, body: { param: 'to' } });
  });
});
