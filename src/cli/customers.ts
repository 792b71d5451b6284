import type { Command } from 'commander';
import { action, UsageError } from './context.js';
import { positiveInt } from './events.js';

interface KycItem {
  kind: string;
  type: string;
  status: string;
  message: string | null;
}

export interface Customer {
  id: string;
  status: string;
  cpf: string;
  name: string | null;
  kyc: KycItem[];
}

/** The customer and its KYC items, one per line. */
export function customerLines(customer: Customer): string[] {
  return [
    `${customer.id}  ${customer.status}  cpf ${customer.cpf}${customer.name ? `  ${customer.name}` : ''}`,
    ...customer.kyc.map(
      (item) => `  ${item.type.padEnd(22)} ${item.status}${item.message ? `  "${item.message}"` : ''}`,
    ),
  ];
}

const CUSTOMER_STATUSES = ['pending_kyc', 'under_review', 'active'];

/** Customers: list, create, show, and the QA shortcuts approve-kyc and complete-biometrics. */
export function registerCustomers(program: Command): void {
  const customers = program.command('customers').description('customers, and shortcuts for QA');

  customers
    .command('list')
    .description('customers, newest first')
    .option('--status <status>', CUSTOMER_STATUSES.join(' | '))
    .option('--cpf <cpf>', 'only the customer with this CPF')
    .option('-l, --limit <n>', 'how many (1..100)', '25')
    .action(
      action(async ({ client, out }, opts: { status?: string; cpf?: string; limit: string }) => {
        const page = await client.call<{ data: Customer[] }>('GET', '/v3/customers', {
          query: { status: opts.status, cpf: opts.cpf, limit: positiveInt(opts.limit, '--limit') },
        });
        out.result(page.data, () =>
          page.data.length ? page.data.map((c) => customerLines(c)[0] as string) : ['no customers'],
        );
        return undefined;
      }),
    );

  customers
    .command('create')
    .argument(
      '<cpf>',
      'a valid CPF (bare or formatted); a magic CPF forces its outcome (see docs/lifecycle.md)',
    )
    .option('--name <name>', 'full name')
    .option('--email <email>', 'email address')
    .option('--phone <phone>', 'phone, e.g. +5511987654321')
    .option('--cnpj <cnpj>', "CNPJ of the customer's business (MEI)")
    .option('--external-id <id>', 'your own id for the customer')
    .description('register a customer (KYC starts: documents and biometrics are next)')
    .action(
      action(async ({ client, out }, cpf: string, opts: Record<string, string | undefined>) => {
        const body: Record<string, string> = { cpf };
        for (const [flag, field] of [
          ['name', 'name'],
          ['email', 'email'],
          ['phone', 'phone'],
          ['cnpj', 'cnpj'],
          ['externalId', 'external_id'],
        ] as const) {
          const value = opts[flag];
          if (value !== undefined) body[field] = value;
        }
        const customer = await client.call<Customer>('POST', '/v3/customers', { body });
        out.result(customer, () => customerLines(customer));
        return undefined;
      }),
    );

  customers
    .command('complete-biometrics')
    .argument('<customer-id>', 'cust_…')
    .option('--outcome <outcome>', 'approved | rejected', 'approved')
    .description('open a biometrics capture session and finish it with an outcome, as the person would')
    .action(
      action(async ({ client, out }, id: string, opts: { outcome: string }) => {
        if (opts.outcome !== 'approved' && opts.outcome !== 'rejected') {
          throw new UsageError(`--outcome must be approved or rejected, got "${opts.outcome}"`);
        }
        const path = encodeURIComponent(id);
        // What a partner's app does first: open the capture session (the person would use its page).
        await client.call('POST', `/v3/customers/${path}/biometrics`);
        const customer = await client.call<Customer>(
          'POST',
          `/v3/sandbox/customers/${path}/biometrics/complete`,
          { body: { outcome: opts.outcome } },
        );
        out.result(customer, () => customerLines(customer));
        return undefined;
      }),
    );

  customers
    .command('approve-kyc')
    .argument('<customer-id>', 'cust_…')
    .description(
      'approve every submitted KYC item now (the customer becomes active when nothing else is missing)',
    )
    .action(
      action(async ({ client, out }, id: string) => {
        const customer = await client.call<Customer>(
          'POST',
          `/v3/sandbox/customers/${encodeURIComponent(id)}/kyc/approve`,
        );
        out.result(customer, () => customerLines(customer));
        return undefined;
      }),
    );

  customers
    .command('show')
    .argument('<customer-id>', 'cust_…')
    .description('print a customer and its KYC items')
    .action(
      action(async ({ client, out }, id: string) => {
        const customer = await client.call<Customer>('GET', `/v3/customers/${encodeURIComponent(id)}`);
        out.result(customer, () => customerLines(customer));
        return undefined;
      }),
    );
}
