import type { Command } from 'commander';
import type { SandboxClient } from './client.js';
import { action, UsageError } from './context.js';
import { positiveInt } from './events.js';

export interface Loan {
  id: string;
  status: string;
  requested_amount: string;
  net_amount: string | null;
  installments: number;
  installments_value: string;
  ccb_number: string | null;
  signing_url: string | null;
  error: { code: string; message: string } | null;
}

export interface Installment {
  installment_number: number;
  due_date: string;
  amount_due: string;
  amount_paid: string;
  amount_outstanding: string;
  status: string;
  days_overdue: number;
}

interface Receipt {
  installment_number: number;
  amount: string;
  applied_to_late_charges: string;
  applied_to_installment: string;
  payment_date: string;
  transaction: Installment;
  loan: Loan;
}

export function loanLine(loan: Loan): string {
  const extra = [
    loan.ccb_number ? `ccb ${loan.ccb_number}` : undefined,
    loan.net_amount ? `net ${loan.net_amount}` : undefined,
    loan.error ? `error ${loan.error.code}: ${loan.error.message}` : undefined,
  ].filter(Boolean);
  return `${loan.id}  ${loan.status}  ${loan.requested_amount} in ${loan.installments} × ${loan.installments_value}${extra.length ? `  (${extra.join(', ')})` : ''}`;
}

function installmentLine(tx: Installment): string {
  const late = tx.days_overdue > 0 ? `, ${tx.days_overdue} days overdue` : '';
  return `  #${String(tx.installment_number).padStart(2)}  due ${tx.due_date}  ${tx.amount_due}  paid ${tx.amount_paid}  owes ${tx.amount_outstanding}  ${tx.status}${late}`;
}

/** Loans: list and show, and the QA shortcuts sign, decline, cancel, fail, pay. */
export function registerLoans(program: Command): void {
  const loans = program.command('loans').description('loans, and shortcuts for QA');
  registerLoanList(loans);

  for (const [name, summary] of [
    ['sign', 'all signatories sign the contract (awaiting_signatures -> signed)'],
    ['decline', 'the customer refuses to sign (-> cancelled)'],
    ['cancel', 'cancel the loan before it is active'],
  ] as const) {
    loans
      .command(name)
      .argument('<loan-id>', 'ln_…')
      .description(summary)
      .action(
        action(async ({ client, out }, id: string) => {
          const loan = await client.call<Loan>('POST', `/v3/sandbox/loans/${encodeURIComponent(id)}/${name}`);
          out.result(loan, () => loanLine(loan));
          return undefined;
        }),
      );
  }

  loans
    .command('fail')
    .argument('<loan-id>', 'ln_…')
    .option('--stage <stage>', 'contract | disbursement', 'disbursement')
    .description('make contract generation or the disbursement fail (-> error)')
    .action(
      action(async ({ client, out }, id: string, opts: { stage: string }) => {
        if (opts.stage !== 'contract' && opts.stage !== 'disbursement') {
          throw new UsageError(`--stage must be contract or disbursement, got "${opts.stage}"`);
        }
        const loan = await client.call<Loan>('POST', `/v3/sandbox/loans/${encodeURIComponent(id)}/fail`, {
          body: { stage: opts.stage },
        });
        out.result(loan, () => loanLine(loan));
        return undefined;
      }),
    );

  loans
    .command('pay')
    .argument('<loan-id>', 'ln_…')
    .option(
      '--amount <amount>',
      'amount with at most 2 decimals, e.g. 150.00 (default: what the installment owes today)',
    )
    .option('--installment <n>', 'installment number (default: the oldest open one)')
    .description('a payment of one installment arrives')
    .action(
      action(async ({ client, out }, id: string, opts: { amount?: string; installment?: string }) => {
        let installment: number | undefined;
        if (opts.installment !== undefined) {
          installment = Number(opts.installment);
          if (!Number.isInteger(installment) || installment < 1) {
            throw new UsageError(`--installment must be a whole number >= 1, got "${opts.installment}"`);
          }
        }
        if (opts.amount !== undefined && !/^\d+(\.\d{1,2})?$/.test(opts.amount)) {
          throw new UsageError(`--amount must have at most 2 decimals, e.g. 150.00, got "${opts.amount}"`);
        }
        const amount = opts.amount ?? (await owed(client, id, installment));
        const receipt = await client.call<Receipt>(
          'POST',
          `/v3/sandbox/loans/${encodeURIComponent(id)}/payments`,
          {
            body: { amount, ...(installment !== undefined ? { installment_number: installment } : {}) },
          },
        );
        out.result(receipt, () => [
          `paid ${receipt.amount} on installment ${receipt.installment_number} (${receipt.payment_date}): ${receipt.applied_to_late_charges} late charges, ${receipt.applied_to_installment} installment`,
          installmentLine(receipt.transaction),
          loanLine(receipt.loan),
        ]);
        return undefined;
      }),
    );

  loans
    .command('show')
    .argument('<loan-id>', 'ln_…')
    .description('print a loan and its installments')
    .action(
      action(async ({ client, out }, id: string) => {
        const loan = await client.call<Loan>('GET', `/v3/loans/${encodeURIComponent(id)}`);
        const txs = await client.call<{ data: Installment[] }>(
          'GET',
          `/v3/loans/${encodeURIComponent(id)}/transactions`,
          {
            query: { limit: 100 },
          },
        );
        out.result({ ...loan, transactions: txs.data }, () => [
          loanLine(loan),
          ...txs.data.map(installmentLine),
        ]);
        return undefined;
      }),
    );
}

/**
 * What an installment (or the oldest open one) owes today. When it owes nothing (already paid,
 * the loan finished, no such installment, a loan not yet active) the API is asked anyway with its
 * full amount, so the CLI reports the API's own refusal (422 installment_already_paid,
 * loan_not_active, installment_not_found) instead of sending 0.00 and getting a 400.
 */
async function owed(client: SandboxClient, loanId: string, installment: number | undefined): Promise<string> {
  const txs = await client.call<{ data: Installment[] }>(
    'GET',
    `/v3/loans/${encodeURIComponent(loanId)}/transactions`,
    {
      query: { limit: 100 },
    },
  );
  const open = txs.data.filter((tx) => tx.status !== 'paid');
  const target =
    installment === undefined ? open[0] : txs.data.find((tx) => tx.installment_number === installment);
  if (target && Number(target.amount_outstanding) > 0) return target.amount_outstanding;
  return target?.amount_due ?? txs.data.at(-1)?.amount_due ?? '0.01';
}

/** `loans list [--customer] [--status]`: newest first. */
function registerLoanList(loans: Command): void {
  loans
    .command('list')
    .description('loans, newest first')
    .option('--customer <customer-id>', 'only the loans of this customer')
    .option('--status <status>', 'only loans in this status, e.g. active')
    .option('-l, --limit <n>', 'how many (1..100)', '25')
    .action(
      action(async ({ client, out }, opts: { customer?: string; status?: string; limit: string }) => {
        const page = await client.call<{ data: Loan[] }>('GET', '/v3/loans', {
          query: {
            customer_id: opts.customer,
            status: opts.status,
            limit: positiveInt(opts.limit, '--limit'),
          },
        });
        out.result(page.data, () => (page.data.length ? page.data.map(loanLine) : ['no loans']));
        return undefined;
      }),
    );
}
