// Loans ("Loan", "States › Loan", POST /loans, GET /loans/{id}): created processing, then walked
// through contract, signature, disbursement and repayment as far as the target moves it (in
// controlled mode the kit signs, pays, cancels and fails loans as the outside world would).
import { getLoan, type Json, loanReaches, newLoan, transactions } from '../flows/credit.js';
import { Loan, Uri } from '../spec/shapes.js';
import { expectShape } from '../spec/validate.js';
import type { Check, CheckContext } from '../types.js';
import { expectEqual, expectTrue } from '../verdict.js';

const SPEC = 'States › Loan';

/** Pays every open installment of an active loan (the outside world's payments, controlled mode). */
export async function payAll(ctx: CheckContext, loanId: string): Promise<void> {
  const api = await ctx.partner();
  for (const tx of await transactions(api, loanId)) {
    if (tx.status === 'paid') continue;
    const amount = String(tx.amount_outstanding ?? tx.amount_due);
    await ctx.control('POST', `/sandbox/loans/${loanId}/payments`, {
      amount,
      installment_number: tx.installment_number,
    });
  }
}

const step = (
  id: string,
  title: string,
  status: string,
  then?: (loan: Json, ctx: CheckContext) => void | Promise<void>,
): Check => ({
  id: `loans.lifecycle.${id}`,
  title,
  spec: SPEC,
  needs: 'black-box',
  async run(ctx) {
    const { id: loanId } = await newLoan(ctx);
    const loan = await loanReaches(ctx, loanId, status);
    expectShape(Loan, loan, 'Loan');
    await then?.(loan, ctx);
  },
});

export const LOAN_CHECKS: Check[] = [
  {
    id: 'loans.create',
    title: 'POST /loans creates a loan in processing with the simulation’s terms',
    spec: 'Endpoints › Simulation and loans › POST /loans; States › Loan',
    needs: 'black-box',
    async run(ctx) {
      const { id, simulation, offer, created } = await newLoan(ctx);
      expectTrue(
        created.status >= 200 && created.status < 300,
        'POST /loans did not succeed',
        '2xx',
        created.status,
        created,
      );
      const loan = expectShape(Loan, await getLoan(await ctx.partner(), id), 'Loan');
      expectEqual(loan.credit_offer_id, offer.id, 'credit_offer_id');
      expectEqual(loan.simulation_id, simulation.id, 'simulation_id');
      expectEqual(loan.installments, simulation.number_of_installments, 'installments');
      expectEqual(loan.installments_value, simulation.installments_value, 'installments_value');
      expectEqual(loan.first_due_date, simulation.first_due_date, 'first_due_date');
      expectEqual(loan.requested_amount, simulation.requested_amount, 'requested_amount');
    },
  },
  {
    id: 'loans.create.processing',
    title: 'a new loan starts in processing, without ccb_number, signing_url or net_amount yet',
    spec: SPEC,
    needs: 'controlled',
    async run(ctx) {
      const { id } = await newLoan(ctx);
      expectEqual(
        (await getLoan(await ctx.partner(), id)).status,
        'processing',
        'status of the new loan (clock not moved)',
      );
    },
  },
  step(
    'contract-generated',
    'the loan moves to contract_generated with a ccb_number',
    'contract_generated',
    (loan) => {
      expectTrue(
        typeof loan.ccb_number === 'string' && loan.ccb_number.length > 0,
        'no ccb_number once the contract is generated',
        'a credit note number',
        loan.ccb_number,
      );
    },
  ),
  step(
    'awaiting-signatures',
    'the loan moves to awaiting_signatures with a signing_url',
    'awaiting_signatures',
    (loan) => {
      expectShape(Uri, loan.signing_url, 'signing_url (a URI)');
    },
  ),
  step(
    'signed',
    'signed by every signatory, the loan is signed and keeps its ccb_number',
    'signed',
    (loan) => {
      expectTrue(
        typeof loan.ccb_number === 'string' && loan.ccb_number.length > 0,
        'a signed loan has no ccb_number',
        'a credit note number',
        loan.ccb_number,
      );
    },
  ),
  step('active', 'disbursed, the loan is active with its net_amount', 'active', (loan) => {
    expectTrue(
      typeof loan.net_amount === 'string',
      'an active loan has no net_amount',
      'a decimal string',
      loan.net_amount,
    );
  }),
  {
    id: 'loans.lifecycle.net-amount',
    title: 'the net_amount of an active loan is the simulation’s net amount',
    spec: 'Endpoints › GET /loans/{loan_id}; Resources › Simulation (amount)',
    needs: 'black-box',
    async run(ctx) {
      const { id, simulation } = await newLoan(ctx);
      const loan = await loanReaches(ctx, id, 'active');
      expectEqual(loan.net_amount, simulation.amount, 'net_amount of the active loan');
    },
  },
  {
    id: 'loans.lifecycle.finished',
    title: 'with every installment paid the loan is finished',
    spec: SPEC,
    needs: 'controlled',
    async run(ctx) {
      const { id } = await newLoan(ctx);
      await loanReaches(ctx, id, 'active');
      await payAll(ctx, id);
      expectEqual(
        (await getLoan(await ctx.partner(), id)).status,
        'finished',
        'status once every installment is paid',
      );
    },
  },
  {
    id: 'loans.lifecycle.cancelled',
    title: 'a loan cancelled before disbursement is cancelled',
    spec: SPEC,
    needs: 'controlled',
    async run(ctx) {
      const { id } = await newLoan(ctx);
      await loanReaches(ctx, id, 'awaiting_signatures');
      await ctx.control('POST', `/sandbox/loans/${id}/cancel`);
      expectEqual(
        (await getLoan(await ctx.partner(), id)).status,
        'cancelled',
        'status after the cancellation',
      );
    },
  },
  {
    id: 'loans.lifecycle.error',
    title: 'a failed disbursement puts the loan in error',
    spec: SPEC,
    needs: 'controlled',
    async run(ctx) {
      const { id } = await newLoan(ctx);
      await loanReaches(ctx, id, 'signed');
      await ctx.control('POST', `/sandbox/loans/${id}/fail`, { stage: 'disbursement' });
      expectEqual(
        (await getLoan(await ctx.partner(), id)).status,
        'error',
        'status after a failed disbursement',
      );
    },
  },
];
