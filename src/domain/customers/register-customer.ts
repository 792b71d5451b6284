import type { DomainContext } from '../../engine/context.js';
import type { CustomerRecord } from '../../store/records.js';
import { ApiError } from '../errors.js';
import { createdEventData } from './customer-view.js';
import { initialKyc } from './requirements.js';
import { normalizeTaxIds } from './tax-ids.js';

/** `POST /customers` input, shape-checked at the edge; tax ids still raw. */
export interface NewCustomer {
  cpf: string;
  cnpj?: string | null | undefined;
  name?: string | null | undefined;
  email?: string | null | undefined;
  phone?: string | null | undefined;
  trading_name?: string | null | undefined;
  external_id?: string | null | undefined;
}

/**
 * Registers a customer in pending_kyc with the requirements of its profile and announces
 * `customer.created`. "The same cpf/cnpj" (spec) means the request's cpf is the customer's and its
 * cnpj, when sent, belongs to no other customer: with the same `external_id` that is a safe retry
 * answering the existing customer; with another, 409 `param: cpf`. A cnpj held by a customer
 * other than the cpf's answers 409 `param: cnpj` whatever the external_id. Synchronous from lookup to insert,
 * so concurrent identical requests cannot both create.
 */
export function registerCustomer(
  ctx: DomainContext,
  input: NewCustomer,
): { customer: CustomerRecord; created: boolean } {
  const ids = normalizeTaxIds({ cpf: input.cpf, cnpj: input.cnpj });
  const cpf = ids.cpf as string;
  const cnpj = ids.cnpj ?? null;
  const externalId = input.external_id ?? null;
  const idx = ctx.store.customerIdx;
  const byCpf = idx.byCpf.get(`${ctx.partnerId}|${cpf}`);
  const byCnpj = cnpj === null ? undefined : idx.byCnpj.get(`${ctx.partnerId}|${cnpj}`);
  // A retry names the same person: its cpf finds the customer, and its cnpj (if any) no other one.
  if (byCpf && (!byCnpj || byCnpj === byCpf) && byCpf.external_id === externalId) {
    return { customer: byCpf, created: false };
  }
  // A cnpj is one company's: held by a customer other than the cpf's, it refuses the request
  // whatever the external_id (a retry repeats the cpf, so it cannot be one).
  if (byCnpj && byCnpj !== byCpf) {
    throw new ApiError(
      'customer_exists',
      `The cnpj ${cnpj} is already registered to customer ${byCnpj.id}${byCpf ? `, while this cpf belongs to customer ${byCpf.id}` : ' under another cpf'}. A cnpj belongs to one customer whatever the external_id: register it with that customer's own cpf (repeating its cpf and external_id returns it), or read it with GET /v3/customers/${byCnpj.id}.`,
      { param: 'cnpj' },
    );
  }
  // Here the cpf's customer has another external_id (the same one returned it above).
  if (byCpf) {
    throw new ApiError(
      'customer_exists',
      `A customer with this cpf already exists: ${byCpf.id} with external_id ${JSON.stringify(byCpf.external_id)}; this request has ${JSON.stringify(externalId)}. Send the same external_id to get it back, or read it with GET /v3/customers/${byCpf.id}.`,
      { param: 'cpf' },
    );
  }

  const now = ctx.clock.iso();
  const customer = ctx.store.customers.insert({
    id: ctx.ids('cust_'),
    seq: ctx.store.nextSeq(),
    partner_id: ctx.partnerId,
    status: 'pending_kyc',
    cpf,
    cnpj,
    name: input.name ?? null,
    email: input.email ?? null,
    phone: input.phone ?? null,
    trading_name: input.trading_name ?? null,
    external_id: externalId,
    kyc: initialKyc({ cnpj }),
    review_job_id: null,
    created_at: now,
    updated_at: now,
  });
  ctx.emit('customer.created', createdEventData(customer));
  return { customer, created: true };
}
