import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import {
  activeCustomer,
  advanceClock,
  createLoan,
  eventsOf,
  getLoan,
  MAGIC_CPF,
  type OfferBody,
  offersOf,
  simulate,
  transactionsOf,
} from '../support/credit.js';
import { createTestSandbox, type TestSandbox } from '../support/sandbox.js';

function charges(amount: string, days: number) {
  const fine = new Decimal(amount).mul('0.02').toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  const interest = new Decimal(amount).mul(days).div(3000).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  return { fine: fine.toFixed(2), interest: interest.toFixed(2), total: fine.plus(interest).toFixed(2) };
}

/** A loan of the magic customer, created at once (the smallest amount and count of its offer). */
async function magicLoan(sandbox: TestSandbox, cpf: string) {
  const customer = await activeCustomer(sandbox, { cpf });
  const offer = (await offersOf(sandbox, customer.id))[0] as OfferBody;
  const count = offer.installments ?? (offer.min_installments as number);
  const sim = await simulate(sandbox, offer.id, offer.min_amount, count);
  return { customer, loan: await createLoan(sandbox, offer.id, sim.id) };
}

describe('magic credit profiles', () => {
  it('signature_declined: declines 5 s after the signature request; the loan is cancelled', async () => {
    const sandbox = createTestSandbox();
    const { customer, loan } = await magicLoan(sandbox, MAGIC_CPF.signatureDeclined);
    await advanceClock(sandbox, { by: '7s' });
    expect((await getLoan(sandbox, loan.id)).status).toBe('awaiting_signatures');
    await advanceClock(sandbox, { by: '1s' });
    const cancelled = await getLoan(sandbox, loan.id);
    expect(cancelled).toMatchObject({
      status: 'cancelled',
      cancelled_at: '2026-03-02T12:00:08.000Z',
      signing_url: null,
    });
    const events = await eventsOf(sandbox, 'loan.*');
    expect(events.map((e) => e.type)).toEqual([
      'loan.created',
      'loan.contract_generated',
      'loan.awaiting_signatures',
      'loan.cancelled',
    ]);
    expect(events.at(-1)?.data).toEqual({ ...cancelled, reason: 'signature_declined' });
    await advanceClock(sandbox, { by: '1d' });
    expect(await offersOf(sandbox, customer.id, 'available')).toHaveLength(1);
  });

  it('disbursement_failure: the pix transfer fails 3 s after it starts; the loan is in error', async () => {
    const sandbox = createTestSandbox();
    const { loan } = await magicLoan(sandbox, MAGIC_CPF.disbursementFailure);
    await advanceClock(sandbox, { by: '3s' });
    await sandbox.json('POST', `/v3/sandbox/loans/${loan.id}/sign`);
    await advanceClock(sandbox, { by: '4s' });
    expect((await getLoan(sandbox, loan.id)).status).toBe('disbursing');
    await advanceClock(sandbox, { by: '1s' });
    const failed = await getLoan(sandbox, loan.id);
    expect(failed).toMatchObject({
      status: 'error',
      net_amount: null,
      error: { code: 'disbursement_failed', message: expect.any(String) },
      disbursement: { method: 'pix', disbursed_at: null },
    });
    expect((await eventsOf(sandbox, 'loan.*')).map((e) => e.type)).toEqual([
      'loan.created',
      'loan.contract_generated',
      'loan.awaiting_signatures',
      'loan.signed',
      'loan.disbursing',
      'loan.error',
    ]);
    expect(await transactionsOf(sandbox, loan.id)).toEqual([]);
  });

  it('pays_on_time: signs by itself and pays every installment on its due date (noon São Paulo time)', async () => {
    const sandbox = createTestSandbox();
    const { loan } = await magicLoan(sandbox, MAGIC_CPF.paysOnTime);
    await advanceClock(sandbox, { by: '16s' });
    const active = await getLoan(sandbox, loan.id);
    expect(active.status).toBe('active');
    const [first] = await transactionsOf(sandbox, loan.id);
    await advanceClock(sandbox, { to: `${first?.due_date}T14:59:59.000Z` });
    expect((await transactionsOf(sandbox, loan.id))[0]?.status).toBe('pending');
    await advanceClock(sandbox, { to: `${first?.due_date}T15:00:00.000Z` });
    expect((await transactionsOf(sandbox, loan.id))[0]).toMatchObject({
      status: 'paid',
      paid_at: `${first?.due_date}T15:00:00.000Z`,
      amount_paid: loan.installments_value,
    });
    await advanceClock(sandbox, { by: '800d' });
    const all = await transactionsOf(sandbox, loan.id);
    expect(all).toHaveLength(loan.installments);
    for (const tx of all) {
      expect(tx).toMatchObject({
        status: 'paid',
        days_overdue: 0,
        amount_paid: tx.amount_due,
        late_charges: { fine: '0.00', interest: '0.00', total: '0.00' },
        paid_at: `${tx.due_date}T15:00:00.000Z`,
      });
    }
    expect((await getLoan(sandbox, loan.id)).status).toBe('finished');
    const types = (await eventsOf(sandbox, 'loan.*')).map((e) => e.type);
    expect(types.filter((t) => t === 'loan.payment_received')).toHaveLength(loan.installments);
    expect(types.at(-1)).toBe('loan.finished');
  });

  it('pays_late: pays each installment 10 days late with its late charges', async () => {
    const sandbox = createTestSandbox();
    const { loan } = await magicLoan(sandbox, MAGIC_CPF.paysLate);
    await advanceClock(sandbox, { by: '800d' });
    const all = await transactionsOf(sandbox, loan.id);
    expect(all).toHaveLength(loan.installments);
    for (const tx of all) {
      const late = charges(tx.amount_due, 10);
      const day = new Date(Date.parse(`${tx.due_date}T15:00:00.000Z`) + 10 * 86_400_000).toISOString();
      expect(tx).toMatchObject({
        status: 'paid',
        late_charges: late,
        amount_paid: new Decimal(tx.amount_due).plus(late.total).toFixed(2),
        amount_outstanding: '0.00',
        paid_at: day,
      });
    }
    expect((await getLoan(sandbox, loan.id)).status).toBe('finished');
    const payments = await eventsOf(sandbox, 'loan.payment_received');
    expect(payments.map((e) => e.data.applied_to_late_charges)).toEqual(
      all.map((tx) => charges(tx.amount_due, 10).total),
    );
  });

  it('pays_partially: pays half of each installment on its due date and never finishes', async () => {
    const sandbox = createTestSandbox();
    const { loan } = await magicLoan(sandbox, MAGIC_CPF.paysPartially);
    await advanceClock(sandbox, { by: '400d' });
    const today = (await sandbox.json<{ now: string }>('GET', '/v3/sandbox/clock')).body.now.slice(0, 10);
    const half = new Decimal(loan.installments_value).div(2).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
    const rest = new Decimal(loan.installments_value).minus(half).toFixed(2);
    for (const tx of await transactionsOf(sandbox, loan.id)) {
      const days = Math.round((Date.parse(today) - Date.parse(tx.due_date)) / 86_400_000);
      const late = charges(rest, days);
      expect(tx).toMatchObject({
        status: 'overdue',
        amount_paid: half.toFixed(2),
        days_overdue: days,
        late_charges: late,
        amount_outstanding: new Decimal(rest).plus(late.total).toFixed(2),
        paid_at: null,
      });
    }
    expect((await getLoan(sandbox, loan.id)).status).toBe('active');
    const payments = await eventsOf(sandbox, 'loan.payment_received');
    expect(payments).toHaveLength(loan.installments);
    for (const event of payments) {
      expect(event.data).toMatchObject({
        amount_paid: half.toFixed(2),
        installment_status: 'partially_paid',
      });
    }
  });
});
