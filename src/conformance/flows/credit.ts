// Offers, simulations and loans as the checks need them: the offer an active customer gets, a
// simulation within it, a loan from the latest simulation, walked as far as the target moves it.

import { okBody } from '../context.js';
import type { Answer, PartnerApi } from '../http.js';
import { KitDecimal as D } from '../money/price.js';
import type { CheckContext } from '../types.js';
import { fail } from '../verdict.js';
import { activeCustomer, type KitCustomer, sharedActiveCustomer } from './customers.js';

export type Json = Record<string, unknown>;

export function listData(answer: Answer, what: string): Json[] {
  const body = okBody(answer, what);
  if (!Array.isArray(body.data))
    fail(`${what}: no \`data\` array`, '{data: [...], has_more}', answer.text.slice(0, 300), answer);
  return body.data as Json[];
}

/** Waits for an `available` offer of the customer and answers it. */
export async function availableOffer(ctx: CheckContext, customerId: string): Promise<Json> {
  const api = await ctx.partner();
  return ctx.until(`offer credit to customer ${customerId}`, async () => {
    const offers = listData(
      await api.call('GET', `/customers/${customerId}/credit-offers`),
      'GET /customers/{id}/credit-offers',
    );
    return offers.find((offer) => offer.status === 'available');
  });
}

/** The installment count the offer allows (its fixed count, or the low end of its range). */
export function offerCount(offer: Json): number {
  const count = typeof offer.installments === 'number' ? offer.installments : offer.min_installments;
  if (typeof count !== 'number')
    fail('the offer gives no installment count', 'installments or min_installments', offer);
  return count;
}

/** An amount inside the offer: twice its minimum, at most the approved amount. */
export function offerAmount(offer: Json): string {
  const min = new D(String(offer.min_amount ?? '0'));
  const approved = new D(String(offer.approved_amount ?? '0'));
  return D.min(approved, D.max(min, min.mul(2))).toFixed(2);
}

export async function simulate(
  api: PartnerApi,
  offer: Json,
  amount = offerAmount(offer),
  count = offerCount(offer),
  key?: string,
): Promise<Answer> {
  return api.call('POST', `/credit-offers/${offer.id}/simulations`, {
    body: { requested_amount: amount, installment_count: count },
    headers: key ? { 'idempotency-key': key } : {},
  });
}

/** The body of POST /loans: the offer, the simulation and the simulation's terms. */
export function loanBody(offer: Json, simulation: Json): Json {
  return {
    credit_offer_id: offer.id,
    simulation_id: simulation.id,
    installments: simulation.number_of_installments,
    installments_value: simulation.installments_value,
    first_due_date: simulation.first_due_date,
  };
}

/** The new loan's id: from the body, else the `Location` header. */
export function loanIdOf(answer: Answer): string {
  const id = (answer.body as Json | undefined)?.id;
  if (typeof id === 'string') return id;
  const location = answer.headers.location?.split('/').pop();
  if (location) return location;
  return fail(
    'POST /loans answered no loan id (neither in the body nor in Location)',
    'an id',
    answer.text.slice(0, 300),
    answer,
  );
}

export interface KitLoan {
  customer: KitCustomer;
  offer: Json;
  simulation: Json;
  id: string;
  created: Answer;
}

/** An active customer's offer, a simulation and a loan from it (status `processing`). */
export async function newLoan(
  ctx: CheckContext,
  options: { mei?: boolean; shared?: boolean } = {},
): Promise<KitLoan> {
  const api = await ctx.partner();
  const customer = options.shared
    ? await sharedActiveCustomer(ctx, options.mei)
    : await activeCustomer(ctx, options);
  const offer = await availableOffer(ctx, customer.id);
  const simulation = okBody(await simulate(api, offer), 'POST /credit-offers/{id}/simulations');
  const created = await api.call('POST', '/loans', { body: loanBody(offer, simulation) });
  if (created.status < 200 || created.status > 299)
    fail(`POST /loans answered ${created.status}`, '2xx', created.text.slice(0, 300), created);
  return { customer, offer, simulation, id: loanIdOf(created), created };
}

export async function getLoan(api: PartnerApi, id: string): Promise<Json> {
  return okBody(await api.call('GET', `/loans/${id}`), 'GET /loans/{id}');
}

/** Waits for the loan to reach `status` (signing is played by the kit in controlled mode). */
export async function loanReaches(ctx: CheckContext, id: string, status: string): Promise<Json> {
  const api = await ctx.partner();
  return ctx.until(
    `move loan ${id} to ${status}`,
    async () => {
      const loan = await getLoan(api, id);
      if (loan.status === status) return loan;
      if (
        loan.status === 'awaiting_signatures' &&
        ctx.facts.mode === 'controlled' &&
        status !== 'awaiting_signatures'
      ) {
        await ctx.control('POST', `/sandbox/loans/${id}/sign`);
        const signed = await getLoan(api, id);
        if (signed.status === status) return signed;
      }
      return undefined;
    },
    { fine: true },
  );
}

/** A loan walked to `active` (its installments exist). */
export async function activeLoan(
  ctx: CheckContext,
  options: { mei?: boolean } = {},
): Promise<KitLoan & { loan: Json }> {
  const loan = await newLoan(ctx, options);
  return { ...loan, loan: await loanReaches(ctx, loan.id, 'active') };
}

export async function transactions(api: PartnerApi, loanId: string): Promise<Json[]> {
  return listData(
    await api.call('GET', `/loans/${loanId}/transactions`, { query: { limit: 100 } }),
    'GET /loans/{id}/transactions',
  );
}
