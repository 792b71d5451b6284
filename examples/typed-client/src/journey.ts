/**
 * The whole journey through a client generated from the sandbox's own OpenAPI document:
 * token → customer → documents → biometrics → offer → simulation → loan → installments.
 *
 *   npm ci
 *   SANDBOX_URL=http://localhost:8080 npm run generate   # openapi-typescript → src/api.d.ts
 *   npm run build && SANDBOX_URL=http://localhost:8080 npm run journey
 *
 * Types come from the document: `paths` types every call, `operations` names each operation by its
 * `operationId` (createCustomer, createSimulation, …). Runs in a partner of its own, so it can run
 * against a sandbox other tests use.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { components, operations, paths } from './api.js';

type Customer = operations['createCustomer']['responses'][201]['content']['application/json'];
type Offer = components['schemas']['CreditOffer'];
type Loan = operations['getLoan']['responses'][200]['content']['application/json'];

const base = `${process.env.SANDBOX_URL ?? 'http://localhost:8080'}/v3`;
const clientId = process.env.SANDBOX_CLIENT_ID ?? 'cid_sandbox_default';
const clientSecret = process.env.SANDBOX_CLIENT_SECRET ?? 'svc_cs_test_sandbox_default_secret';

/** Stops the journey with what the API answered. */
function must<T>(step: string, result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) {
    throw new Error(`${step}: HTTP ${result.response.status} ${JSON.stringify(result.error)}`);
  }
  console.log(`✓ ${step} (${result.response.status})`);
  return result.data;
}

function bearer(token: string): Middleware {
  return {
    onRequest({ request }) {
      request.headers.set('Authorization', `Bearer ${token}`);
      return request;
    },
  };
}

async function token(id: string, secret: string): Promise<string> {
  const api = createClient<paths>({ baseUrl: base });
  const basic = Buffer.from(`${id}:${secret}`).toString('base64');
  const issued = must(
    `createAccessToken for ${id}`,
    await api.POST('/auth/token', { headers: { Authorization: `Basic ${basic}` } }),
  );
  return issued.access_token;
}

// A minimal PDF: the sandbox reads the format from the leading bytes.
const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

async function main(): Promise<void> {
  // 1. A partner of our own (sandbox control), and a token for it.
  const admin = createClient<paths>({ baseUrl: base });
  admin.use(bearer(await token(clientId, clientSecret)));
  const partner = must(
    'createSandboxPartner',
    await admin.POST('/sandbox/partners', { body: { name: 'typed-client journey' } }),
  );
  const api = createClient<paths>({ baseUrl: base });
  api.use(bearer(await token(partner.client_id, partner.client_secret)));
  const advance = async (by: string) =>
    must(`advanceSandboxClock ${by}`, await api.POST('/sandbox/clock/advance', { body: { by } }));

  // 2. A customer.
  const customer: Customer = must(
    'createCustomer',
    await api.POST('/customers', {
      params: { header: { 'Idempotency-Key': `journey-${partner.id}` } },
      body: { cpf: '529.982.247-25', name: 'Maria da Silva', email: 'maria@example.com', phone: '+5511987654321' },
    }),
  );

  // 3. Every document its KYC asks for.
  for (const item of customer.kyc.filter((k) => k.kind === 'document' && k.type !== 'biometrics')) {
    must(
      `uploadCustomerDocument ${item.type}`,
      await api.POST('/customers/{customer_id}/documents', {
        params: { path: { customer_id: customer.id } },
        // `file` is typed Blob (scripts/generate.mjs): the body is the form's fields, typed.
        body: { type: item.type, file: new Blob([PDF], { type: 'application/pdf' }) },
        bodySerializer: (body) => {
          const form = new FormData();
          form.set('type', body.type);
          form.set('file', body.file, 'document.pdf');
          return form;
        },
      }),
    );
  }

  // 4. Biometrics: a hosted session the customer would open; the sandbox completes it.
  const session = must(
    'createBiometricsSession',
    await api.POST('/customers/{customer_id}/biometrics', { params: { path: { customer_id: customer.id } } }),
  );
  console.log(`  session_url ${session.session_url}`);
  must(
    'completeSandboxBiometrics',
    await api.POST('/sandbox/customers/{customer_id}/biometrics/complete', {
      params: { path: { customer_id: customer.id } },
      body: { outcome: 'approved' },
    }),
  );
  await advance('1m'); // documents reviewed, KYC approved, offer generated
  const active = must(
    'getCustomer',
    await api.GET('/customers/{customer_id}', { params: { path: { customer_id: customer.id } } }),
  );
  if (active.status !== 'active') throw new Error(`customer is ${active.status}, expected active`);

  // 5. The offer, a simulation and the loan.
  const offers = must(
    'listCustomerCreditOffers',
    await api.GET('/customers/{customer_id}/credit-offers', {
      params: { path: { customer_id: customer.id }, query: { status: 'available' } },
    }),
  );
  const offer: Offer | undefined = offers.data[0];
  if (!offer) throw new Error('no available offer');
  // CreditOffer is oneOf: a fixed `installments`, or a `min_installments`..`max_installments` range.
  const count = 'installments' in offer ? offer.installments : offer.min_installments;
  const simulation = must(
    'createSimulation',
    await api.POST('/credit-offers/{credit_offer_id}/simulations', {
      params: { path: { credit_offer_id: offer.id } },
      body: { requested_amount: offer.min_amount, installment_count: count },
    }),
  );
  console.log(`  ${simulation.number_of_installments} × ${simulation.installments_value}, CET ${simulation.cet_percentage} %`);
  const created = must(
    'createLoan',
    await api.POST('/loans', { body: { credit_offer_id: offer.id, simulation_id: simulation.id } }),
  );
  await advance('5s'); // contract generated, sent for signature
  must('signSandboxLoan', await api.POST('/sandbox/loans/{loan_id}/sign', { params: { path: { loan_id: created.id } } }));
  await advance('10s'); // disbursed
  const loan: Loan = must('getLoan', await api.GET('/loans/{loan_id}', { params: { path: { loan_id: created.id } } }));
  if (loan.status !== 'active') throw new Error(`loan is ${loan.status}, expected active`);

  // 6. Its installments.
  const installments = must(
    'listLoanTransactions',
    await api.GET('/loans/{loan_id}/transactions', { params: { path: { loan_id: loan.id }, query: { limit: 100 } } }),
  );
  if (installments.data.length !== loan.installments) {
    throw new Error(`${installments.data.length} installments, expected ${loan.installments}`);
  }
  const first = installments.data[0];
  console.log(`  first installment ${first?.due_date}: ${first?.amount_due} (${first?.status})`);
  console.log('journey complete');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
