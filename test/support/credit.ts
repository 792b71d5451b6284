import { type CustomerBody, createCustomer, type EventBody, submitAllKyc } from './customers.js';
import type { TestSandbox } from './sandbox.js';

/** Example CPFs per offer tier (docs/credit.md), none of them magic. */
export const TIER_CPF = {
  starter: '12345600209',
  standard: '12345600705',
  plus: '12345600110',
  premium: '12345601515',
} as const;

/** Magic credit profiles (fixtures/magic-profiles.json). */
export const MAGIC_CPF = {
  noOffer: '00000000353',
  signatureDeclined: '00000000434',
  disbursementFailure: '00000000515',
  paysOnTime: '00000000604',
  paysLate: '00000000787',
  paysPartially: '00000000868',
  installmentRange: '00000000949',
} as const;

export interface OfferBody {
  id: string;
  customer_id: string;
  status: string;
  approved_amount: string;
  min_amount: string;
  interest_rate: number;
  installments?: number;
  min_installments?: number;
  max_installments?: number;
  due_date_rule: string | null;
  valid_until: string;
  created_at: string;
  updated_at: string;
}

export interface SimulationBody {
  id: string;
  credit_offer_id: string;
  requested_amount: string;
  amount: string;
  interest_amount: string;
  fees_amount: string;
  iof_amount: string;
  total_loan_amount: string;
  interest_percentage: number;
  cet_percentage: number;
  number_of_installments: number;
  installments_value: string;
  first_due_date: string;
  created_at: string;
}

export interface LoanBody {
  id: string;
  status: string;
  customer_id: string;
  credit_offer_id: string;
  simulation_id: string;
  requested_amount: string;
  net_amount: string | null;
  installments: number;
  installments_value: string;
  first_due_date: string;
  total_loan_amount: string;
  ccb_number: string | null;
  signing_url: string | null;
  disbursement: { method: string; end_to_end_id: string; disbursed_at: string | null } | null;
  error: { code: string; message: string } | null;
  cancelled_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface TransactionBody {
  id: string;
  loan_id: string;
  type: string;
  installment_number: number;
  due_date: string;
  payable_until: string;
  amount_due: string;
  amount_paid: string;
  amount_outstanding: string;
  status: string;
  days_overdue: number;
  late_charges: { fine: string; interest: string; total: string };
  paid_at: string | null;
  created_at: string;
  updated_at: string;
}

function ok<T>(res: { status: number; body: T }, expected: number, what: string): T {
  if (res.status !== expected) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/**
 * Registers a customer and takes it through KYC to `active` (uploads, biometrics, then the control
 * approval), which grants its offer. Returns the customer as it is then.
 */
export async function activeCustomer(
  sandbox: TestSandbox,
  body: Record<string, unknown> = {},
  token?: string,
): Promise<CustomerBody> {
  const auth = token ? { token } : {};
  const customer = await createCustomer(sandbox, body, token);
  if (token) throw new Error('activeCustomer with a token is not supported by submitAllKyc');
  await submitAllKyc(sandbox, customer.id, body.cnpj ? ['ccmei'] : []);
  ok(
    await sandbox.json('POST', `/v3/sandbox/customers/${customer.id}/kyc/approve`, auth),
    200,
    'kyc approve',
  );
  const active = ok(
    await sandbox.json<CustomerBody>('GET', `/v3/customers/${customer.id}`, auth),
    200,
    'get',
  );
  if (active.status !== 'active') throw new Error(`customer not active: ${JSON.stringify(active)}`);
  return active;
}

/** The customer's offers, newest first. */
export async function offersOf(
  sandbox: TestSandbox,
  customerId: string,
  status?: string,
): Promise<OfferBody[]> {
  const query = status ? `?status=${status}` : '';
  return ok(
    await sandbox.json<{ data: OfferBody[] }>('GET', `/v3/customers/${customerId}/credit-offers${query}`),
    200,
    'offers',
  ).data;
}

export async function simulate(
  sandbox: TestSandbox,
  offerId: string,
  requested_amount: string,
  installment_count: number,
): Promise<SimulationBody> {
  return ok(
    await sandbox.json<SimulationBody>('POST', `/v3/credit-offers/${offerId}/simulations`, {
      body: { requested_amount, installment_count },
    }),
    201,
    'simulation',
  );
}

export async function createLoan(
  sandbox: TestSandbox,
  offerId: string,
  simulationId: string,
): Promise<LoanBody> {
  return ok(
    await sandbox.json<LoanBody>('POST', '/v3/loans', {
      body: { credit_offer_id: offerId, simulation_id: simulationId },
    }),
    201,
    'loan',
  );
}

export async function getLoan(sandbox: TestSandbox, loanId: string): Promise<LoanBody> {
  return ok(await sandbox.json<LoanBody>('GET', `/v3/loans/${loanId}`), 200, 'get loan');
}

export async function transactionsOf(sandbox: TestSandbox, loanId: string): Promise<TransactionBody[]> {
  const all: TransactionBody[] = [];
  let cursor: string | undefined;
  for (;;) {
    const query = `limit=100${cursor ? `&starting_after=${cursor}` : ''}`;
    const page = ok(
      await sandbox.json<{ data: TransactionBody[]; has_more: boolean }>(
        'GET',
        `/v3/loans/${loanId}/transactions?${query}`,
      ),
      200,
      'transactions',
    );
    all.push(...page.data);
    if (!page.has_more) return all;
    cursor = page.data.at(-1)?.id;
  }
}

/** Every event of the partner matching `type` (a pattern), oldest first. */
export async function eventsOf(sandbox: TestSandbox, type = '*'): Promise<EventBody[]> {
  const all: EventBody[] = [];
  let cursor: string | undefined;
  for (;;) {
    const query = `type=${type}&limit=100${cursor ? `&starting_after=${cursor}` : ''}`;
    const page = ok(
      await sandbox.json<{ data: EventBody[]; has_more: boolean }>('GET', `/v3/sandbox/events?${query}`),
      200,
      'events',
    );
    all.push(...page.data);
    if (!page.has_more) return all.reverse();
    cursor = page.data.at(-1)?.id;
  }
}

export async function advanceClock(
  sandbox: TestSandbox,
  move: { by: string } | { to: string },
): Promise<void> {
  ok(await sandbox.json('POST', '/v3/sandbox/clock/advance', { body: move }), 200, 'advance');
}
