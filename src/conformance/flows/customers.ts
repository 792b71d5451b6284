// Customers as the kit's checks need them: registered with the kit's own CPF and external id,
// then walked through KYC (documents, biometrics) until `active`.
import { okBody } from '../context.js';
import type { Answer, PartnerApi } from '../http.js';
import type { CheckContext } from '../types.js';
import { fail } from '../verdict.js';
import { documentForm } from './files.js';

export interface KitCustomer {
  id: string;
  body: Record<string, unknown>;
  answer: Answer;
  request: Record<string, unknown>;
}

/** The body the kit registers a customer with (every field the spec lists). */
export function customerBody(
  ctx: CheckContext,
  options: { mei?: boolean; label?: string } = {},
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    cpf: ctx.cpf(),
    name: `Conformance ${options.label ?? 'Customer'}`,
    email: `conformance+${ctx.facts.runTag}@example.com`,
    phone: '+5511987654321',
    external_id: ctx.externalId(options.label ?? 'customer'),
  };
  if (options.mei) {
    body.cnpj = ctx.cnpj();
    body.trading_name = `Conformance ${options.label ?? 'Customer'} MEI`;
  }
  return body;
}

/** Registers a customer; fails unless 201 with an id. */
export async function registerCustomer(
  ctx: CheckContext,
  options: { mei?: boolean; label?: string; body?: Record<string, unknown> } = {},
): Promise<KitCustomer> {
  const api = await ctx.partner();
  const request = options.body ?? customerBody(ctx, options);
  const answer = await api.call('POST', '/customers', { body: request });
  if (answer.status !== 201)
    fail(`POST /customers answered ${answer.status}`, '201', answer.text.slice(0, 300), answer);
  const body = okBody(answer, 'POST /customers');
  if (typeof body.id !== 'string') fail('the new customer has no `id`', 'a string id', body.id, answer);
  return { id: body.id, body, answer, request };
}

export async function getCustomer(api: PartnerApi, id: string): Promise<Record<string, unknown>> {
  return okBody(await api.call('GET', `/customers/${id}`), `GET /customers/${id}`);
}

/** The KYC items that take a file upload (`kind: document`, not biometrics). */
export function documentItems(customer: Record<string, unknown>): string[] {
  const kyc = Array.isArray(customer.kyc) ? (customer.kyc as Array<Record<string, unknown>>) : [];
  return kyc
    .filter((item) => item.kind === 'document' && item.type !== 'biometrics' && typeof item.type === 'string')
    .map((item) => item.type as string);
}

export function hasBiometrics(customer: Record<string, unknown>): boolean {
  return (
    Array.isArray(customer.kyc) &&
    (customer.kyc as Array<Record<string, unknown>>).some((item) => item.type === 'biometrics')
  );
}

export async function uploadDocument(api: PartnerApi, customerId: string, type: string): Promise<Answer> {
  return api.call('POST', `/customers/${customerId}/documents`, { body: documentForm(type) });
}

/**
 * Submits every required document and the biometrics; in controlled mode the kit then plays the
 * customer completing the capture. Returns when all is submitted (not yet reviewed).
 */
export async function submitKyc(ctx: CheckContext, customer: KitCustomer): Promise<void> {
  const api = await ctx.partner();
  for (const type of documentItems(customer.body)) {
    const answer = await uploadDocument(api, customer.id, type);
    if (answer.status !== 201)
      fail(`uploading ${type} answered ${answer.status}`, '201', answer.text.slice(0, 300), answer);
  }
  if (hasBiometrics(customer.body)) {
    const session = await api.call('POST', `/customers/${customer.id}/biometrics`);
    if (session.status !== 200)
      fail(
        `POST /customers/{id}/biometrics answered ${session.status}`,
        '200',
        session.text.slice(0, 300),
        session,
      );
    if (ctx.facts.mode === 'controlled') {
      await ctx.control('POST', `/sandbox/customers/${customer.id}/biometrics/complete`, {
        outcome: 'approved',
      });
    }
  }
}

/** Waits until the customer has `status`; answers it. */
export async function customerReaches(
  ctx: CheckContext,
  id: string,
  status: string,
): Promise<Record<string, unknown>> {
  const api = await ctx.partner();
  return ctx.until(`move customer ${id} to ${status}`, async () => {
    const customer = await getCustomer(api, id);
    return customer.status === status ? customer : undefined;
  });
}

/** A new customer walked to `active` (biometrics need a person in black box: then it skips). */
export async function activeCustomer(
  ctx: CheckContext,
  options: { mei?: boolean; label?: string } = {},
): Promise<KitCustomer> {
  const customer = await registerCustomer(ctx, options);
  await submitKyc(ctx, customer);
  const body = await customerReaches(ctx, customer.id, 'active');
  return { ...customer, body };
}

/** One active customer per partner world, shared by the checks that only read it. */
export function sharedActiveCustomer(ctx: CheckContext, mei = false): Promise<KitCustomer> {
  return ctx.fixture(mei ? 'active-mei-customer' : 'active-customer', () =>
    activeCustomer(ctx, { mei, label: mei ? 'shared-mei' : 'shared' }),
  );
}
