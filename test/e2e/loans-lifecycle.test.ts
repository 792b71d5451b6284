import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import {
  activeCustomer,
  advanceClock,
  eventsOf,
  getLoan,
  type LoanBody,
  offersOf,
  simulate,
  TIER_CPF,
  type TransactionBody,
  transactionsOf,
} from '../support/credit.js';
import type { EventBody } from '../support/customers.js';
import { createTestSandbox } from '../support/sandbox.js';

const T0 = '2026-03-02T12:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();
const DUE_DATES = [
  '2026-04-02',
  '2026-05-02',
  '2026-06-02',
  '2026-07-02',
  '2026-08-02',
  '2026-09-02',
  '2026-10-02',
  '2026-11-02',
  '2026-12-02',
  '2027-01-02',
  '2027-02-02',
  '2027-03-02',
];
// Business days, by hand: 2026-05-02 is a Saturday, 08-02 a Sunday, 11-02 Finados (Monday),
// 2027-01-02 a Saturday.
const PAYABLE_UNTIL: Record<string, string> = {
  '2026-05-02': '2026-05-04',
  '2026-08-02': '2026-08-03',
  '2026-11-02': '2026-11-03',
  '2027-01-02': '2027-01-04',
};
const LATE = 3; // installment paid 10 days late
const NO_CHARGES = { fine: '0.00', interest: '0.00', total: '0.00' };

/** 2 % fine + 1 % a month pro rata die, each rounded half up to cents (computed here independently). */
function expectedCharges(amount: string, days: number) {
  const fine = new Decimal(amount).mul('0.02').toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  const interest = new Decimal(amount)
    .mul('0.01')
    .mul(days)
    .div(30)
    .toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  return { fine: fine.toFixed(2), interest: interest.toFixed(2), total: fine.plus(interest).toFixed(2) };
}

describe('a loan from registration to finished', () => {
  it('walks every state, transaction status and event of one customer', async () => {
    const sandbox = createTestSandbox();
    const customer = await activeCustomer(sandbox, { cpf: TIER_CPF.standard, external_id: 'client-42' });
    const [offer] = await offersOf(sandbox, customer.id);
    expect(offer).toEqual({
      id: expect.stringMatching(/^co_[0-9a-f]{32}$/),
      customer_id: customer.id,
      status: 'available',
      approved_amount: '10000.00',
      min_amount: '500.00',
      interest_rate: 2,
      installments: 12,
      due_date_rule: 'same_day_next_month',
      valid_until: '2026-04-01T12:00:00.000Z',
      created_at: T0,
      updated_at: T0,
    });
    const offerId = offer?.id as string;

    // Two simulations: only the later one can be contracted.
    const first = await simulate(sandbox, offerId, '5000.00', 12);
    await advanceClock(sandbox, { by: '60s' });
    const second = await simulate(sandbox, offerId, '10000.00', 12);
    expect(second).toEqual({
      id: expect.stringMatching(/^sim_[0-9a-f]{32}$/),
      credit_offer_id: offerId,
      requested_amount: '10000.00',
      amount: '9793.13',
      interest_amount: '1347.20',
      fees_amount: '0.00',
      iof_amount: '206.87',
      total_loan_amount: '11347.20',
      interest_percentage: 2,
      cet_percentage: 31.83,
      number_of_installments: 12,
      installments_value: '945.60',
      first_due_date: '2026-04-02',
      created_at: at(60),
    });
    const stale = await sandbox.json('POST', '/v3/loans', {
      body: { credit_offer_id: offerId, simulation_id: first.id },
    });
    expect(stale.status).toBe(422);
    expect(stale.body).toMatchObject({ code: 'simulation_superseded', param: 'simulation_id' });

    // Creation: processing, offer accepted.
    const created = await sandbox.json<LoanBody>('POST', '/v3/loans', {
      body: {
        credit_offer_id: offerId,
        simulation_id: second.id,
        installments: 12,
        installments_value: '945.60',
        first_due_date: '2026-04-02',
      },
    });
    expect(created.status).toBe(201);
    const loanId = created.body.id;
    expect(created.headers.get('location')).toBe(`/v3/loans/${loanId}`);
    const base: LoanBody = {
      id: expect.stringMatching(/^ln_[0-9a-f]{32}$/) as unknown as string,
      status: 'processing',
      customer_id: customer.id,
      credit_offer_id: offerId,
      simulation_id: second.id,
      requested_amount: '10000.00',
      net_amount: null,
      installments: 12,
      installments_value: '945.60',
      first_due_date: '2026-04-02',
      total_loan_amount: '11347.20',
      ccb_number: null,
      signing_url: null,
      disbursement: null,
      error: null,
      cancelled_at: null,
      created_at: at(60),
      updated_at: at(60),
    };
    expect(created.body).toEqual(base);
    const accepted = await sandbox.json<{ status: string; updated_at: string }>(
      'GET',
      `/v3/credit-offers/${offerId}`,
    );
    expect(accepted.body).toMatchObject({ status: 'accepted', updated_at: at(60) });

    // Contract generated 2 s later; the signing page comes 1 s after that.
    await advanceClock(sandbox, { by: '1s' });
    expect((await getLoan(sandbox, loanId)).status).toBe('processing');
    await advanceClock(sandbox, { by: '1s' });
    const ccb = `CCB-20260302-${loanId.slice(-10).toUpperCase()}`;
    // The contract exists: GET shows the signing_url its event announces, at the same instant.
    const generated = await getLoan(sandbox, loanId);
    const signingUrl = generated.signing_url as string;
    expect(signingUrl).toMatch(new RegExp(`^http://sandbox\\.test/hosted/contracts/${loanId}/[\\w-]{32}$`));
    const contract = {
      ...base,
      id: loanId,
      status: 'contract_generated',
      ccb_number: ccb,
      updated_at: at(62),
    };
    const generatedView = { ...contract, signing_url: signingUrl };
    expect(generated).toEqual(generatedView);
    await advanceClock(sandbox, { by: '1s' });
    const awaiting = await getLoan(sandbox, loanId);
    expect(awaiting).toEqual({
      ...generatedView,
      status: 'awaiting_signatures',
      updated_at: at(63),
    });

    // Nothing happens until the customer signs.
    await advanceClock(sandbox, { by: '1h' });
    expect((await getLoan(sandbox, loanId)).status).toBe('awaiting_signatures');
    const signedAt = 63 + 3600;
    const signed = await sandbox.json<LoanBody>('POST', `/v3/sandbox/loans/${loanId}/sign`);
    expect(signed.status).toBe(200);
    const signedView = { ...contract, status: 'signed', updated_at: at(signedAt) };
    expect(signed.body).toEqual(signedView);

    // Disbursement by pix starts 2 s after signing and is confirmed 3 s later.
    await advanceClock(sandbox, { by: '2s' });
    const disbursing = await getLoan(sandbox, loanId);
    const e2e = disbursing.disbursement?.end_to_end_id as string;
    expect(e2e).toMatch(/^E99999999202603021301[A-Za-z0-9]{11}$/);
    const disbursingView = {
      ...signedView,
      status: 'disbursing',
      disbursement: { method: 'pix', end_to_end_id: e2e, disbursed_at: null },
      updated_at: at(signedAt + 2),
    };
    expect(disbursing).toEqual(disbursingView);
    expect(await transactionsOf(sandbox, loanId)).toEqual([]);
    await advanceClock(sandbox, { by: '3s' });
    const activeView = {
      ...disbursingView,
      status: 'active',
      net_amount: '9793.13',
      disbursement: { method: 'pix', end_to_end_id: e2e, disbursed_at: at(signedAt + 5) },
      updated_at: at(signedAt + 5),
    };
    expect(await getLoan(sandbox, loanId)).toEqual(activeView);

    const installments = await transactionsOf(sandbox, loanId);
    const pending = (k: number): TransactionBody => ({
      id: installments[k]?.id as string,
      loan_id: loanId,
      type: 'installment',
      installment_number: k + 1,
      due_date: DUE_DATES[k] as string,
      payable_until: PAYABLE_UNTIL[DUE_DATES[k] as string] ?? (DUE_DATES[k] as string),
      amount_due: '945.60',
      amount_paid: '0.00',
      amount_outstanding: '945.60',
      status: 'pending',
      days_overdue: 0,
      late_charges: NO_CHARGES,
      paid_at: null,
      created_at: at(signedAt + 5),
      updated_at: at(signedAt + 5),
    });
    expect(installments).toEqual(DUE_DATES.map((_, k) => pending(k)));
    for (const tx of installments) expect(tx.id).toMatch(/^tx_[0-9a-f]{32}$/);

    // Pay every installment on its due date at noon, except the third: 10 days late.
    const payments: { k: number; paidAt: string; amount: string; charges: string }[] = [];
    for (let k = 0; k < 12; k += 1) {
      const due = DUE_DATES[k] as string;
      if (k + 1 === LATE) {
        // Still pending at 23:59:59 São Paulo time on its due date, overdue from 00:00 São Paulo
        // time the next day (03:00 UTC), counting whole days.
        expect(due).toBe('2026-06-02');
        await advanceClock(sandbox, { to: '2026-06-03T02:59:59.000Z' });
        expect((await transactionsOf(sandbox, loanId))[k]?.status).toBe('pending');
        await advanceClock(sandbox, { to: '2026-06-03T03:00:00.000Z' });
        expect((await transactionsOf(sandbox, loanId))[k]).toEqual({
          ...pending(k),
          status: 'overdue',
          days_overdue: 1,
          late_charges: expectedCharges('945.60', 1),
          amount_outstanding: new Decimal('945.60').plus(expectedCharges('945.60', 1).total).toFixed(2),
          updated_at: '2026-06-03T03:00:00.000Z',
        });
        const paidAt = '2026-06-12T12:00:00.000Z';
        await advanceClock(sandbox, { to: paidAt });
        const charges = expectedCharges('945.60', 10);
        const owed = new Decimal('945.60').plus(charges.total).toFixed(2);
        expect((await transactionsOf(sandbox, loanId))[k]).toMatchObject({
          status: 'overdue',
          days_overdue: 10,
          late_charges: charges,
          amount_outstanding: owed,
        });
        // Without installment_number the payment goes to the oldest open installment: this one.
        const receipt = await sandbox.json<Record<string, unknown>>(
          'POST',
          `/v3/sandbox/loans/${loanId}/payments`,
          {
            body: { amount: owed },
          },
        );
        expect(receipt.status).toBe(200);
        expect(receipt.body).toMatchObject({
          loan_id: loanId,
          transaction_id: installments[k]?.id,
          installment_number: LATE,
          amount: owed,
          applied_to_late_charges: charges.total,
          applied_to_installment: '945.60',
          payment_date: '2026-06-12',
          transaction: {
            status: 'paid',
            days_overdue: 0,
            amount_paid: owed,
            amount_outstanding: '0.00',
            late_charges: charges,
            paid_at: paidAt,
          },
          loan: { id: loanId, status: 'active' },
        });
        payments.push({ k, paidAt, amount: owed, charges: charges.total });
        continue;
      }
      const paidAt = `${due}T12:00:00.000Z`;
      await advanceClock(sandbox, { to: paidAt });
      const res = await sandbox.json<Record<string, unknown>>(
        'POST',
        `/v3/sandbox/loans/${loanId}/payments`,
        {
          body: { amount: '945.60', installment_number: k + 1 },
        },
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ applied_to_late_charges: '0.00', applied_to_installment: '945.60' });
      payments.push({ k, paidAt, amount: '945.60', charges: '0.00' });
      const loan = await getLoan(sandbox, loanId);
      expect(loan.status).toBe(k === 11 ? 'finished' : 'active');
    }

    // Every installment paid, the late one with its charges.
    const finalInstallments = await transactionsOf(sandbox, loanId);
    expect(finalInstallments).toEqual(
      DUE_DATES.map((_, k) => {
        const late = k + 1 === LATE;
        const charges = late ? expectedCharges('945.60', 10) : NO_CHARGES;
        const payment = payments.find((p) => p.k === k);
        return {
          ...pending(k),
          status: 'paid',
          amount_paid: payment?.amount,
          amount_outstanding: '0.00',
          late_charges: charges,
          paid_at: payment?.paidAt,
          updated_at: payment?.paidAt,
        };
      }),
    );
    const lastPaidAt = payments.at(-1)?.paidAt as string;
    const finishedView = { ...activeView, status: 'finished', updated_at: lastPaidAt };
    expect(await getLoan(sandbox, loanId)).toEqual(finishedView);
    const paid = await sandbox.json('POST', `/v3/sandbox/loans/${loanId}/payments`, {
      body: { amount: '1.00' },
    });
    expect(paid.status).toBe(422);
    expect(paid.body).toMatchObject({ code: 'loan_not_active' });

    // Every credit event, in order, with its payload.
    const events = await eventsOf(sandbox);
    const credit = events.filter((e) => !e.type.startsWith('customer.'));
    const customerActive = events.findIndex((e) => e.type === 'customer.active');
    expect(events.findIndex((e) => e.type === 'credit_offer.available')).toBe(customerActive + 1);
    const shape = (e: EventBody) => [e.type, e.timestamp, e.data];
    const paymentEvents = payments.flatMap((p, n) => {
      const last = n === payments.length - 1;
      const received = [
        'loan.payment_received',
        p.paidAt,
        {
          ...activeView,
          updated_at: p.paidAt,
          transaction_id: installments[p.k]?.id,
          installment_number: p.k + 1,
          amount_paid: p.amount,
          payment_date: p.paidAt.slice(0, 10),
          applied_to_late_charges: p.charges,
          applied_to_installment: '945.60',
          installment_status: 'paid',
        },
      ];
      return last ? [received, ['loan.finished', p.paidAt, finishedView]] : [received];
    });
    expect(credit.map(shape)).toEqual([
      ['credit_offer.available', T0, offer],
      ['loan.created', at(60), { ...base, id: loanId }],
      ['loan.contract_generated', at(62), generatedView],
      ['loan.awaiting_signatures', at(63), awaiting],
      ['loan.signed', at(signedAt), signedView],
      ['loan.disbursing', at(signedAt + 2), disbursingView],
      ['loan.active', at(signedAt + 5), activeView],
      ...paymentEvents,
    ]);
  });
});
