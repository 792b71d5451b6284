// Installments ("Transaction", GET /loans/{id}/transactions): one per installment once the loan is
// active, read-only, paid, partially paid and overdue as payments arrive or do not — with the
// Brazilian business-day rule of Lei 7.089/1983 for a due date on a day banks are closed.
import { activeLoan, getLoan, type Json, transactions } from '../flows/credit.js';
import { isBusinessDay, nextBusinessDay } from '../money/business-days.js';
import { dueDates, plusDays } from '../money/dates.js';
import { Transaction } from '../spec/shapes.js';
import { expectShape } from '../spec/validate.js';
import type { Check, CheckContext } from '../types.js';
import { expectClientError, expectEqual, expectTrue, skip } from '../verdict.js';

const SPEC = 'Resources › Transaction; GET /loans/{loan_id}/transactions';

/** Moves the partner clock to 12:00 São Paulo time (15:00 UTC) on `date`. */
async function clockTo(ctx: CheckContext, date: string): Promise<void> {
  const now = String(((await ctx.control('GET', '/sandbox/clock')).body as Json).now);
  const target = Date.parse(`${date}T15:00:00Z`);
  const seconds = Math.floor((target - Date.parse(now)) / 1000);
  if (seconds > 0) await ctx.advance(`${seconds}s`);
}

async function installment(ctx: CheckContext, loanId: string, n = 0): Promise<Json> {
  const list = await transactions(await ctx.partner(), loanId);
  return list[n] as Json;
}

export const TRANSACTION_CHECKS: Check[] = [
  {
    id: 'loans.transactions.created',
    title:
      'an active loan has one pending installment transaction per installment, monthly from first_due_date',
    spec: SPEC,
    needs: 'black-box',
    async run(ctx) {
      const { id, simulation } = await activeLoan(ctx);
      const list = await transactions(await ctx.partner(), id);
      expectEqual(list.length, simulation.number_of_installments, 'transactions of the active loan');
      const due = dueDates(String(simulation.first_due_date), list.length);
      list.forEach((tx, k) => {
        const item = expectShape(Transaction, tx, 'Transaction');
        expectEqual(item.amount_due, simulation.installments_value, `amount_due of installment ${k + 1}`);
        expectEqual(item.status, 'pending', `status of installment ${k + 1} before it falls due`);
        expectEqual(item.days_overdue, 0, `days_overdue of installment ${k + 1}`);
        expectEqual(item.due_date, due[k], `due_date of installment ${k + 1}`);
      });
    },
  },
  {
    id: 'loans.transactions.read-only',
    title: 'transactions are read-only: a POST to the list is refused',
    spec: `${SPEC} (transactions are read-only)`,
    needs: 'black-box',
    async run(ctx) {
      const { id } = await activeLoan(ctx);
      const answer = await (await ctx.partner()).call('POST', `/loans/${id}/transactions`, {
        body: { amount_due: '1.00' },
      });
      expectClientError(answer, 'POST /loans/{id}/transactions');
    },
  },
  {
    id: 'loans.transactions.paid',
    title: 'a payment of the whole installment makes it paid',
    spec: SPEC,
    needs: 'controlled',
    async run(ctx) {
      const { id } = await activeLoan(ctx);
      const tx = await installment(ctx, id);
      await ctx.control('POST', `/sandbox/loans/${id}/payments`, {
        amount: tx.amount_due,
        installment_number: tx.installment_number ?? 1,
      });
      expectEqual(
        (await installment(ctx, id)).status,
        'paid',
        'the first installment after paying it in full',
      );
    },
  },
  {
    id: 'loans.transactions.partially-paid',
    title: 'a payment of part of the installment makes it partially_paid',
    spec: SPEC,
    needs: 'controlled',
    async run(ctx) {
      const { id } = await activeLoan(ctx);
      await ctx.control('POST', `/sandbox/loans/${id}/payments`, { amount: '1.00', installment_number: 1 });
      expectEqual(
        (await installment(ctx, id)).status,
        'partially_paid',
        'the first installment after R$ 1.00 of it',
      );
    },
  },
  {
    id: 'loans.transactions.overdue',
    title: 'an unpaid installment past its due date is overdue with days_overdue > 0',
    spec: SPEC,
    needs: 'controlled',
    async run(ctx) {
      const { id } = await activeLoan(ctx);
      const tx = await installment(ctx, id);
      await clockTo(ctx, plusDays(nextBusinessDay(String(tx.due_date)), 2));
      const after = expectShape(Transaction, await installment(ctx, id), 'Transaction');
      expectEqual(after.status, 'overdue', 'the unpaid first installment two days after it could be paid');
      expectTrue(
        after.days_overdue > 0,
        'an overdue installment has days_overdue 0',
        '> 0',
        after.days_overdue,
      );
      expectEqual(
        (await getLoan(await ctx.partner(), id)).status,
        'active',
        'the loan stays active with an overdue installment',
      );
    },
  },
  {
    id: 'loans.transactions.business-day',
    title:
      'an installment due on a day banks are closed is not overdue on the next business day (Lei 7.089/1983)',
    spec: `${SPEC}; Lei 7.089/1983`,
    needs: 'controlled',
    async run(ctx) {
      const { id } = await activeLoan(ctx);
      const list = await transactions(await ctx.partner(), id);
      const k = list.findIndex((tx) => !isBusinessDay(String(tx.due_date)));
      if (k < 0) skip('no installment of the loan falls due on a weekend or bank holiday');
      const due = String((list[k] as Json).due_date);
      const payable = nextBusinessDay(due);
      for (const earlier of list.slice(0, k)) {
        await ctx.control('POST', `/sandbox/loans/${id}/payments`, {
          amount: earlier.amount_due,
          installment_number: earlier.installment_number ?? list.indexOf(earlier) + 1,
        });
      }
      await clockTo(ctx, payable);
      expectEqual(
        (await installment(ctx, id, k)).status,
        'pending',
        `installment due ${due} (banks closed) on the next business day ${payable}`,
      );
      await clockTo(ctx, plusDays(payable, 1));
      expectEqual(
        (await installment(ctx, id, k)).status,
        'overdue',
        `the same installment the day after ${payable}`,
      );
    },
  },
];
