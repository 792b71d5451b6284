// The spec's lists, each with how the kit fills it with objects of its own and how it finds an
// empty one: what the list conventions are checked on ("Endpoints › Conventions", "Limits").
import { okBody } from '../context.js';
import { availableOffer, loanBody, loanReaches, simulate } from '../flows/credit.js';
import { activeCustomer, registerCustomer } from '../flows/customers.js';
import type { Check, CheckContext, Needs } from '../types.js';
import { fail, skip } from '../verdict.js';

/** A list the kit filled: where it is, and the ids of the kit's own items in creation order. */
export interface FilledList {
  path: string;
  query?: Record<string, string>;
  ids: string[];
}

export interface ListSubject {
  name: string;
  /** The operation as the spec names it. */
  operation: string;
  /** What making more than one item needs (offers and installments need the control API). */
  needsMany: Needs;
  needsOne: Needs;
  make(ctx: CheckContext, count: number): Promise<FilledList>;
  /** An empty collection of this list (undefined: the list is never empty, e.g. credentials). */
  empty?(ctx: CheckContext): Promise<FilledList>;
  idOf(item: Record<string, unknown>): unknown;
}

const byId = (item: Record<string, unknown>) => item.id;

/**
 * Customers one after the other; `spaced`: each created later than the one before (in controlled
 * mode one partner-clock second apart), for the checks of the order by time.
 */
export async function makeCustomers(
  ctx: CheckContext,
  count: number,
  names?: string[],
  spaced = false,
): Promise<string[]> {
  const ids: string[] = [];
  for (let k = 0; k < count; k++) {
    if (k > 0 && spaced && ctx.facts.mode === 'controlled') await ctx.advance('1s');
    else if (k > 0 && spaced) await new Promise((r) => setTimeout(r, 15));
    const label = names?.[k] ?? `list-${k}`;
    ids.push((await registerCustomer(ctx, { label })).id);
  }
  return ids;
}

/** An active customer with `count` offers (more than one are granted through the control API). */
async function customerWithOffers(
  ctx: CheckContext,
  count: number,
): Promise<{ customer: string; offers: string[] }> {
  const customer = await activeCustomer(ctx);
  const first = await availableOffer(ctx, customer.id);
  const offers = [String(first.id)];
  for (let k = 1; k < count; k++) {
    const granted = await ctx.control('POST', `/sandbox/customers/${customer.id}/credit-offers`, {});
    offers.push(String((granted.body as { id?: unknown }).id));
  }
  return { customer: customer.id, offers };
}

export const LIST_SUBJECTS: ListSubject[] = [
  {
    name: 'customers',
    operation: 'GET /customers',
    needsMany: 'black-box',
    needsOne: 'black-box',
    idOf: byId,
    async make(ctx, count) {
      return { path: '/customers', ids: await makeCustomers(ctx, count) };
    },
    async empty(ctx) {
      if (ctx.facts.mode === 'controlled') return { path: '/customers', ids: [] };
      return { path: '/customers', query: { external_id: ctx.externalId('nobody') }, ids: [] };
    },
  },
  {
    name: 'customer-credit-offers',
    operation: 'GET /customers/{customer_id}/credit-offers',
    needsMany: 'controlled',
    needsOne: 'black-box',
    idOf: byId,
    async make(ctx, count) {
      const { customer, offers } = await customerWithOffers(ctx, count);
      return { path: `/customers/${customer}/credit-offers`, ids: offers };
    },
    async empty(ctx) {
      const customer = await registerCustomer(ctx, { label: 'no-offers' });
      return { path: `/customers/${customer.id}/credit-offers`, ids: [] };
    },
  },
  {
    name: 'credit-offers',
    operation: 'GET /credit-offers',
    needsMany: 'controlled',
    needsOne: 'black-box',
    idOf: byId,
    async make(ctx, count) {
      const { customer, offers } = await customerWithOffers(ctx, count);
      return { path: '/credit-offers', query: { customer_id: customer }, ids: offers };
    },
    async empty(ctx) {
      const customer = await registerCustomer(ctx, { label: 'no-offers' });
      return { path: '/credit-offers', query: { customer_id: customer.id }, ids: [] };
    },
  },
  {
    name: 'webhook-endpoints',
    operation: 'GET /webhooks/endpoints',
    needsMany: 'black-box',
    needsOne: 'black-box',
    idOf: byId,
    async make(ctx, count) {
      const ids: string[] = [];
      for (let k = 0; k < count; k++) {
        if (k > 0 && ctx.facts.mode === 'controlled') await ctx.advance('1s');
        ids.push(
          (await ctx.webhook({ events: ['credit_offer.expired'], description: `conformance list ${k}` })).id,
        );
      }
      return { path: '/webhooks/endpoints', ids };
    },
    async empty(ctx) {
      if (ctx.facts.mode !== 'controlled') skip("a black-box partner's endpoints are not the kit's to empty");
      return { path: '/webhooks/endpoints', ids: [] };
    },
  },
  {
    name: 'credentials',
    operation: 'GET /auth/credentials',
    needsMany: 'black-box',
    needsOne: 'black-box',
    idOf: (item) => item.client_id,
    async make(ctx, count) {
      const api = await ctx.partner();
      const ids: string[] = [];
      for (let k = 0; k < count; k++) {
        const body = okBody(
          await api.call('POST', '/auth/credentials', { body: { name: ctx.externalId(`list-${k}`) } }),
          'POST /auth/credentials',
        );
        const id = String(body.client_id);
        ctx.cleanup(() => api.call('DELETE', `/auth/credentials/${encodeURIComponent(id)}`));
        ids.push(id);
      }
      return { path: '/auth/credentials', ids };
    },
  },
  {
    name: 'transactions',
    operation: 'GET /loans/{loan_id}/transactions',
    needsMany: 'controlled',
    needsOne: 'controlled',
    idOf: byId,
    async make(ctx, count) {
      // An offer with as many installments as the list needs (at least 2), granted by the control API.
      const customer = await activeCustomer(ctx);
      const installments = Math.max(2, count);
      const granted = await ctx.control('POST', `/sandbox/customers/${customer.id}/credit-offers`, {
        approved_amount: '20000.00',
        min_amount: '1000.00',
        interest_rate: 2,
        installments,
      });
      const offer = granted.body as Record<string, unknown>;
      const api = await ctx.partner();
      const simulation = okBody(
        await simulate(api, offer, '10000.00', installments),
        'POST /credit-offers/{id}/simulations',
      );
      const created = await api.call('POST', '/loans', { body: loanBody(offer, simulation) });
      const loanId = (created.body as { id?: unknown } | undefined)?.id;
      if (typeof loanId !== 'string')
        fail('POST /loans answered no loan id', 'an id', created.text.slice(0, 200), created);
      await loanReaches(ctx, loanId, 'active');
      const all = okBody(
        await api.call('GET', `/loans/${loanId}/transactions`, { query: { limit: 100 } }),
        'GET /loans/{id}/transactions',
      );
      const ids = (all.data as Array<Record<string, unknown>>).map((tx) => String(tx.id));
      return { path: `/loans/${loanId}/transactions`, ids };
    },
  },
];

/** Builds one check per subject with `build`, skipping subjects it does not apply to. */
export function perSubject(build: (subject: ListSubject) => Check | undefined): Check[] {
  return LIST_SUBJECTS.map(build).filter((check): check is Check => check !== undefined);
}
