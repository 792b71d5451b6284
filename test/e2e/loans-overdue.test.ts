import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { magicBehaviour } from '../../src/domain/magic-profiles.js';
import { generateCnpj, generateCpf } from '../../src/finance/index.js';
import {
  activeCustomer,
  advanceClock,
  createLoan,
  eventsOf,
  getLoan,
  type OfferBody,
  offersOf,
  simulate,
  type TransactionBody,
  transactionsOf,
} from '../support/credit.js';
import { createTestSandbox } from '../support/sandbox.js';

const LOANS = 100;
const DAY = 86_400_000;

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(to) - Date.parse(from)) / DAY);
}

function expectedCharges(amount: string, days: number) {
  const fine = new Decimal(amount).mul('0.02').toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  const interest = new Decimal(amount).mul(days).div(3000).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  return { fine: fine.toFixed(2), interest: interest.toFixed(2), total: fine.plus(interest).toFixed(2) };
}

/** What an unpaid installment must show on `today` (YYYY-MM-DD). */
function expectUnpaid(tx: TransactionBody, today: string, activatedAt: string): void {
  // A due date on a weekend or holiday is payable until the next business day (at most 4 days later:
  // Carnival Saturday to Ash Wednesday); overdue only from the day after that.
  const payableUntil = tx.payable_until;
  expect(payableUntil >= tx.due_date).toBe(true);
  expect(daysBetween(tx.due_date, payableUntil)).toBeLessThanOrEqual(4);
  expect([0, 6]).not.toContain(new Date(`${payableUntil}T00:00:00.000Z`).getUTCDay());
  // 00:00 São Paulo time (03:00 UTC) the day after payable_until.
  const overdueFrom = new Date(Date.parse(`${payableUntil}T03:00:00.000Z`) + DAY).toISOString();
  if (today > payableUntil) {
    const days = daysBetween(tx.due_date, today);
    const charges = expectedCharges(tx.amount_due, days);
    expect(tx).toMatchObject({
      status: 'overdue',
      days_overdue: days,
      late_charges: charges,
      amount_paid: '0.00',
      amount_outstanding: new Decimal(tx.amount_due).plus(charges.total).toFixed(2),
      paid_at: null,
      // Moved by the job at 00:00 São Paulo time the day after payable_until; charges count from due_date.
      updated_at: overdueFrom,
    });
  } else {
    expect(tx).toMatchObject({
      status: 'pending',
      days_overdue: 0,
      late_charges: { fine: '0.00', interest: '0.00', total: '0.00' },
      amount_outstanding: tx.amount_due,
      updated_at: activatedAt,
    });
  }
}

describe('400 days of unpaid installments', () => {
  it(`keeps overdue days, late charges and events right for every installment of ${LOANS} loans`, async () => {
    const sandbox = createTestSandbox();
    const cpfs: string[] = [];
    for (let base = 200_000_001; cpfs.length < LOANS; base += 1) {
      const cpf = generateCpf(String(base));
      if (!magicBehaviour(cpf)) cpfs.push(cpf);
    }

    const loanIds: string[] = [];
    for (const [n, cpf] of cpfs.entries()) {
      // Every fourth customer is an MEI: a fee, the Simples IOF and a range of installments.
      const cnpj = n % 4 === 0 ? generateCnpjFor(n) : undefined;
      const customer = await activeCustomer(sandbox, { cpf, ...(cnpj ? { cnpj } : {}) });
      const [offer] = (await offersOf(sandbox, customer.id)) as [OfferBody];
      const count = offer.installments ?? offer.max_installments ?? 1;
      const sim = await simulate(sandbox, offer.id, offer.approved_amount, count);
      loanIds.push((await createLoan(sandbox, offer.id, sim.id)).id);
    }
    await advanceClock(sandbox, { by: '3s' });
    for (const id of loanIds)
      expect((await sandbox.json('POST', `/v3/sandbox/loans/${id}/sign`)).status).toBe(200);
    await advanceClock(sandbox, { by: '5s' });
    const activatedAt = (await getLoan(sandbox, loanIds[0] as string)).updated_at;
    for (const id of loanIds) expect((await getLoan(sandbox, id)).status).toBe('active');
    const before = (await eventsOf(sandbox, 'loan.*')).length;
    expect(before).toBe(LOANS * 6);

    // A first look after 45 days, then the rest of the 400 in one jump.
    await advanceClock(sandbox, { by: '45d' });
    let today = (await sandbox.json<{ now: string }>('GET', '/v3/sandbox/clock')).body.now.slice(0, 10);
    for (const id of loanIds) {
      for (const tx of await transactionsOf(sandbox, id)) expectUnpaid(tx, today, activatedAt);
    }
    await advanceClock(sandbox, { by: '355d' });
    today = (await sandbox.json<{ now: string }>('GET', '/v3/sandbox/clock')).body.now.slice(0, 10);
    expect(today).toBe('2027-04-06');

    let overdue = 0;
    let pending = 0;
    for (const id of loanIds) {
      const loan = await getLoan(sandbox, id);
      expect(loan.status).toBe('active');
      const installments = await transactionsOf(sandbox, id);
      expect(installments).toHaveLength(loan.installments);
      for (const tx of installments) {
        expectUnpaid(tx, today, activatedAt);
        if (tx.status === 'overdue') overdue += 1;
        else pending += 1;
      }
    }
    // Both kinds are present: loans of up to 36 installments outlive 400 days.
    expect(overdue).toBeGreaterThan(LOANS * 6);
    expect(pending).toBeGreaterThan(0);

    // Overdue installments announce nothing: each loan has its six lifecycle events and no payment.
    const events = await eventsOf(sandbox, 'loan.*');
    expect(events).toHaveLength(LOANS * 6);
    for (const id of loanIds) {
      expect(events.filter((e) => e.data.id === id).map((e) => e.type)).toEqual([
        'loan.created',
        'loan.contract_generated',
        'loan.awaiting_signatures',
        'loan.signed',
        'loan.disbursing',
        'loan.active',
      ]);
    }
    // Accepted offers never expire.
    expect(await eventsOf(sandbox, 'credit_offer.expired')).toEqual([]);
  });
});

/** A valid numeric CNPJ per customer (check digits from the finance module). */
function generateCnpjFor(n: number): string {
  return generateCnpj(`${String(10_000_000 + n).padStart(8, '0')}0001`);
}
