import { describe, expect, it } from 'vitest';
import {
  activeCustomer,
  advanceClock,
  createLoan,
  getLoan,
  type OfferBody,
  offersOf,
  simulate,
  TIER_CPF,
  transactionsOf,
} from '../support/credit.js';
import { createTestSandbox, type TestSandbox } from '../support/sandbox.js';

/** An instant written as São Paulo wall time (UTC-3 since 2019), as an ISO UTC string. */
const saoPaulo = (date: string, time: string) => new Date(Date.parse(`${date}T${time}-03:00`)).toISOString();

async function activeLoan(sandbox: TestSandbox) {
  const customer = await activeCustomer(sandbox, { cpf: TIER_CPF.standard });
  const offer = (await offersOf(sandbox, customer.id))[0] as OfferBody;
  const sim = await simulate(sandbox, offer.id, '1000.00', offer.installments ?? offer.min_installments ?? 1);
  const loan = await createLoan(sandbox, offer.id, sim.id);
  await advanceClock(sandbox, { by: '3s' });
  expect((await sandbox.json('POST', `/v3/sandbox/loans/${loan.id}/sign`)).status).toBe(200);
  await advanceClock(sandbox, { by: '5s' });
  return getLoan(sandbox, loan.id);
}

describe('days are São Paulo days', () => {
  it('counts a payment at 23:30 São Paulo time on payable_until as on time (02:30 UTC the next day)', async () => {
    const sandbox = createTestSandbox();
    const loan = await activeLoan(sandbox);
    const [first] = await transactionsOf(sandbox, loan.id);
    const until = first?.payable_until as string;
    const at = saoPaulo(until, '23:30:00');
    expect(at.slice(0, 10)).not.toBe(until); // in UTC it is already the next day
    await advanceClock(sandbox, { to: at });
    const [before] = await transactionsOf(sandbox, loan.id);
    expect(before).toMatchObject({ status: 'pending', days_overdue: 0 });

    const paid = await sandbox.json<{ payment_date: string; transaction: Record<string, unknown> }>(
      'POST',
      `/v3/sandbox/loans/${loan.id}/payments`,
      { body: { amount: first?.amount_due } },
    );
    expect(paid.status).toBe(200);
    expect(paid.body.transaction).toMatchObject({
      status: 'paid',
      days_overdue: 0,
      late_charges: { fine: '0.00', interest: '0.00', total: '0.00' },
      paid_at: at,
    });
    // The next midnight changes nothing for a paid installment.
    await advanceClock(sandbox, { by: '1h' });
    expect((await transactionsOf(sandbox, loan.id))[0]).toMatchObject({ status: 'paid', days_overdue: 0 });
  });

  it('moves an unpaid installment to overdue at 00:00 São Paulo time the day after payable_until', async () => {
    const sandbox = createTestSandbox();
    const loan = await activeLoan(sandbox);
    const [first] = await transactionsOf(sandbox, loan.id);
    const until = first?.payable_until as string;
    const nextDay = new Date(Date.parse(`${until}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

    await advanceClock(sandbox, { to: saoPaulo(until, '23:59:59') });
    expect((await transactionsOf(sandbox, loan.id))[0]).toMatchObject({ status: 'pending', days_overdue: 0 });
    await advanceClock(sandbox, { by: '1s' });
    const midnight = saoPaulo(nextDay, '00:00:00');
    expect(midnight).toBe(`${nextDay}T03:00:00.000Z`);
    expect((await transactionsOf(sandbox, loan.id))[0]).toMatchObject({
      status: 'overdue',
      updated_at: midnight,
    });
    expect((await transactionsOf(sandbox, loan.id))[0]?.days_overdue).toBeGreaterThan(0);
  });

  it('starts the calendar endpoint on the São Paulo day of the partner clock', async () => {
    const sandbox = createTestSandbox();
    // 2026-03-02T12:00Z; at 01:00 UTC on 2026-03-03 it is still 22:00 on 2026-03-02 in São Paulo.
    await advanceClock(sandbox, { to: '2026-03-03T01:00:00.000Z' });
    const calendar = await sandbox.json<{ from: string }>('GET', '/v3/sandbox/calendar');
    expect(calendar.status).toBe(200);
    expect(calendar.body.from).toBe('2026-03-02');
    await advanceClock(sandbox, { to: '2026-03-03T03:00:00.000Z' });
    expect((await sandbox.json<{ from: string }>('GET', '/v3/sandbox/calendar')).body.from).toBe(
      '2026-03-03',
    );
  });
});
