import { nameKey } from '../store/customer-indexes.js';
import type { Store } from '../store/store.js';

/** The id prefixes the search box knows, and what each names. */
export const SEARCHABLE_IDS = {
  cust_: 'customer',
  co_: 'credit offer',
  sim_: 'simulation',
  ln_: 'loan',
  tx_: 'installment',
  we_: 'webhook endpoint',
  evt_: 'event',
  req_: 'request',
} as const;

const ID = /^(cust_|co_|sim_|ln_|tx_|we_|evt_|req_)[0-9a-z]+$/;

/** The prefix of a sandbox id, or undefined for anything else (a name, a CPF…). */
export function idPrefix(q: string): keyof typeof SEARCHABLE_IDS | undefined {
  return ID.exec(q)?.[1] as keyof typeof SEARCHABLE_IDS | undefined;
}

/**
 * The dashboard page that shows an id of this partner, or undefined when the partner has no such
 * object (another partner's id is not found, as in the API). Requests live in the inspector, not
 * the store: their page checks the id itself.
 */
export function pageOf(store: Store, partnerId: string, id: string): string | undefined {
  const mine = <T extends { partner_id: string }>(row: T | undefined) =>
    row?.partner_id === partnerId ? row : undefined;
  const customer = (customerId: string) => `/dashboard/customers/${customerId}`;
  const loan = (loanId: string) => `/dashboard/loans/${loanId}`;
  switch (idPrefix(id)) {
    case 'cust_':
      return mine(store.customers.get(id)) && customer(id);
    case 'co_': {
      const offer = mine(store.creditOffers.get(id));
      return offer && `${customer(offer.customer_id)}#offers`;
    }
    case 'sim_': {
      const simulation = mine(store.simulations.get(id));
      if (!simulation) return undefined;
      // The loan made from it, when there is one; else the customer with the offer.
      const made = store.loanIdx.byCustomer
        .rows(`${partnerId}|${simulation.customer_id}`)
        .find((row) => row.simulation_id === id);
      return made ? loan(made.id) : `${customer(simulation.customer_id)}#offers`;
    }
    case 'ln_':
      return mine(store.loans.get(id)) && loan(id);
    case 'tx_': {
      const tx = mine(store.transactions.get(id));
      return tx && `${loan(tx.loan_id)}#installments`;
    }
    case 'we_':
      return mine(store.webhookEndpoints.get(id)) && `/dashboard/webhooks?endpoint_id=${id}`;
    case 'evt_': {
      const event = mine(store.events.get(id));
      if (!event) return undefined;
      const object = typeof event.data.id === 'string' ? event.data.id : '';
      return pageOf(store, partnerId, object) ?? `/dashboard/events?type=${event.type}`;
    }
    case 'req_':
      return `/dashboard/requests/${id}`;
    default:
      return undefined;
  }
}

/**
 * The partner's customers whose name holds `q`, case and accents ignored ("joao" finds "João"),
 * newest first, at most `limit`: one pass over the partner's list (10,000 customers at most with
 * hosted safety, a few milliseconds), with the store's cached name keys.
 */
export function customersNamed(store: Store, partnerId: string, q: string, limit: number) {
  const needle = nameKey(q.trim());
  const all = store.customerIdx.sorted.created_at.all.rows(partnerId);
  const found = [];
  for (let k = all.length - 1; k >= 0 && found.length < limit; k -= 1) {
    const row = all[k];
    if (row && nameKey(row.name).includes(needle)) found.push(row);
  }
  return found;
}
