import type { Command } from 'commander';
import { action } from './context.js';

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

/** QA shortcuts for customers: `customers approve-kyc <id>`, `customers show <id>`. */
export function registerCustomers(program: Command): void {
  const customers = program.command('customers').description('customer shortcuts for QA');

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
