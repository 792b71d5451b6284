// Customers (spec: "Customer", "Endpoints › Customers", "States › Customer", "Errors" rules 1–2):
// registration, the safe retry and the conflict, reading, updating, immutable fields, filters.
import { okBody } from '../context.js';
import { customerBody, registerCustomer } from '../flows/customers.js';
import { Customer, E164, Email } from '../spec/shapes.js';
import { expectShape } from '../spec/validate.js';
import type { Check } from '../types.js';
import { expectClientError, expectEqual, expectStatus, expectTrue, fail } from '../verdict.js';
import { expectProblem } from './problems.js';

const SPEC = 'Endpoints › Customers › POST /customers';
const digits = (value: unknown) => String(value ?? '').replace(/\D/g, '');

/** The path of a `Location` (relative as the spec writes it, or an absolute URL). */
export function locationPath(location: string | undefined, base: string): string | undefined {
  if (location === undefined) return undefined;
  try {
    return new URL(location, base).pathname;
  } catch {
    return undefined;
  }
}

export const CUSTOMER_CHECKS: Check[] = [
  {
    id: 'customers.create.status',
    title: 'a new customer is answered 201',
    spec: SPEC,
    needs: 'black-box',
    async run(ctx) {
      await registerCustomer(ctx);
    },
  },
  {
    id: 'customers.create.location',
    title: 'the 201 carries Location /v3/customers/<customer_id>',
    spec: SPEC,
    needs: 'black-box',
    async run(ctx) {
      const customer = await registerCustomer(ctx);
      const path = locationPath(customer.answer.headers.location, ctx.facts.target);
      expectEqual(path, `/v3/customers/${customer.id}`, 'the Location header', customer.answer);
    },
  },
  {
    id: 'customers.create.fields',
    title: 'the new customer has every field of the spec, with its type, pattern and format',
    spec: 'Resources › Customer',
    needs: 'black-box',
    async run(ctx) {
      const { body, answer, request } = await registerCustomer(ctx);
      const customer = expectShape(Customer, body, 'Customer', answer);
      expectShape(Email, customer.email, 'Customer.email (email format)', answer);
      expectShape(E164, customer.phone, 'Customer.phone (E.164)', answer);
      expectEqual(digits(customer.cpf), request.cpf, 'cpf as sent', answer);
      expectEqual(customer.external_id, request.external_id, 'external_id as sent', answer);
      expectEqual(customer.name, request.name, 'name as sent', answer);
      expectEqual(customer.cnpj, null, 'cnpj of a customer registered without one', answer);
    },
  },
  {
    id: 'customers.create.pending-kyc',
    title: 'a new customer is pending_kyc and its kyc array lists the pending requirements',
    spec: 'States › Customer',
    needs: 'black-box',
    async run(ctx) {
      const { body, answer } = await registerCustomer(ctx);
      expectEqual(body.status, 'pending_kyc', 'status of a new customer', answer);
      const kyc = Array.isArray(body.kyc) ? body.kyc : [];
      expectTrue(kyc.length > 0, 'the kyc array of a new customer is empty', 'the requirements', kyc, answer);
      const open = kyc.filter((item) => (item as { status?: unknown }).status !== 'pending');
      expectTrue(
        open.length === 0,
        'a requirement of a new customer is not pending',
        'every item pending',
        open,
        answer,
      );
    },
  },
  {
    id: 'customers.create.company',
    title: 'cnpj and trading_name sent at registration are kept',
    spec: 'Resources › Customer',
    needs: 'black-box',
    async run(ctx) {
      const { body, answer, request } = await registerCustomer(ctx, { mei: true });
      expectEqual(digits(body.cnpj), request.cnpj, 'cnpj as sent', answer);
      expectEqual(body.trading_name, request.trading_name, 'trading_name as sent', answer);
    },
  },
  {
    id: 'customers.create.same-external-id',
    title: 'the same cpf with the same external_id is a safe retry: 200 with the existing customer',
    spec: `${SPEC}; Errors rule 2`,
    needs: 'black-box',
    async run(ctx) {
      const first = await registerCustomer(ctx);
      const again = await (await ctx.partner()).call('POST', '/customers', { body: first.request });
      expectStatus(again, 200, 'the same cpf and external_id again');
      const body = expectShape(Customer, again.body, 'Customer', again);
      expectEqual(body.id, first.id, 'the existing customer is answered', again);
    },
  },
  {
    id: 'customers.create.conflict',
    title: 'the same cpf with another external_id is refused 409 (problem format)',
    spec: `${SPEC}; Errors rule 1`,
    needs: 'black-box',
    async run(ctx) {
      const first = await registerCustomer(ctx);
      const answer = await (await ctx.partner()).call('POST', '/customers', {
        body: { ...first.request, external_id: ctx.externalId('other') },
      });
      expectStatus(answer, 409, 'the same cpf with another external_id');
      expectProblem(answer, 409);
    },
  },
  {
    id: 'customers.create.cnpj-conflict',
    title: 'the same cnpj with another external_id is refused 409',
    spec: `${SPEC}; Errors rule 1`,
    needs: 'black-box',
    async run(ctx) {
      const first = await registerCustomer(ctx, { mei: true });
      const body = { ...customerBody(ctx, { mei: true }), cnpj: first.request.cnpj };
      const answer = await (await ctx.partner()).call('POST', '/customers', { body });
      expectStatus(answer, 409, 'the same cnpj with another external_id');
      expectProblem(answer, 409);
    },
  },
  {
    id: 'customers.create.cpf-required',
    title: 'a registration without cpf is refused with a 4xx problem',
    spec: `${SPEC} (cpf required)`,
    needs: 'black-box',
    async run(ctx) {
      const { cpf: _cpf, ...body } = customerBody(ctx);
      const answer = await (await ctx.partner()).call('POST', '/customers', { body });
      expectStatus(answer, [400, 422], 'POST /customers without cpf');
      expectProblem(answer);
    },
  },
  {
    id: 'customers.create.invalid-cpf',
    title: 'a cpf with wrong check digits is refused with a 4xx problem',
    spec: `${SPEC} (400, 422)`,
    needs: 'black-box',
    async run(ctx) {
      const body = customerBody(ctx);
      const cpf = String(body.cpf);
      const wrong = `${cpf.slice(0, 10)}${(Number(cpf[10]) + 1) % 10}`;
      const answer = await (await ctx.partner()).call('POST', '/customers', {
        body: { ...body, cpf: wrong },
      });
      expectStatus(answer, [400, 422], 'POST /customers with a cpf whose check digit is wrong');
      expectProblem(answer);
    },
  },
  {
    id: 'customers.get',
    title: 'GET /customers/{id} answers the customer with every field',
    spec: 'Endpoints › Customers › GET /customers/{customer_id}',
    needs: 'black-box',
    async run(ctx) {
      const created = await registerCustomer(ctx);
      const answer = await (await ctx.partner()).call('GET', `/customers/${created.id}`);
      expectStatus(answer, 200, 'GET /customers/{id}');
      const body = expectShape(Customer, answer.body, 'Customer', answer);
      for (const field of ['id', 'cpf', 'external_id', 'name', 'email', 'phone', 'created_at'] as const) {
        expectEqual(body[field], created.body[field], `${field} as registered`, answer);
      }
    },
  },
  {
    id: 'customers.get.unknown',
    title: 'an unknown customer id is answered 404 (problem format)',
    spec: 'Endpoints › Customers › GET /customers/{customer_id}; Errors rule 4',
    needs: 'black-box',
    async run(ctx) {
      const answer = await (await ctx.partner()).call('GET', `/customers/cust_${'0'.repeat(31)}1`);
      expectStatus(answer, 404, 'GET /customers/{unknown id}');
      expectProblem(answer, 404);
    },
  },
  {
    id: 'customers.update',
    title: 'PATCH /customers/{id} changes the fields sent and nothing else',
    spec: 'Endpoints › Customers › PATCH /customers/{customer_id}',
    needs: 'black-box',
    async run(ctx) {
      const created = await registerCustomer(ctx);
      const change = {
        email: `conformance+patched-${ctx.facts.runTag}@example.com`,
        phone: '+5521912345678',
        name: 'Conformance Patched',
      };
      const answer = await (await ctx.partner()).call('PATCH', `/customers/${created.id}`, { body: change });
      expectStatus(answer, 200, 'PATCH /customers/{id}');
      const body = expectShape(Customer, answer.body, 'Customer', answer);
      for (const [field, value] of Object.entries(change))
        expectEqual(body[field], value, `${field} after the update`, answer);
      for (const field of ['cpf', 'external_id', 'cnpj', 'trading_name', 'created_at'] as const) {
        expectEqual(
          body[field],
          created.body[field],
          `${field} is untouched by an update that does not send it`,
          answer,
        );
      }
    },
  },
  ...(['cpf', 'external_id'] as const).map(
    (field): Check => ({
      id: `customers.update.${field.replace('_', '-')}-immutable`,
      title: `${field} cannot be changed after creation`,
      spec: 'Resources › Customer; PATCH /customers/{customer_id}',
      needs: 'black-box',
      async run(ctx) {
        const created = await registerCustomer(ctx);
        const api = await ctx.partner();
        const value = field === 'cpf' ? ctx.cpf() : ctx.externalId('changed');
        const answer = await api.call('PATCH', `/customers/${created.id}`, { body: { [field]: value } });
        if (answer.status >= 500)
          fail(
            `PATCH with ${field} answered ${answer.status}`,
            'a 4xx refusal or the customer unchanged',
            answer.status,
            answer,
          );
        if (answer.status >= 400) expectClientError(answer, `PATCH with ${field}`);
        const after = okBody(await api.call('GET', `/customers/${created.id}`), 'GET /customers/{id}');
        expectEqual(after[field], created.body[field], `${field} after an attempt to change it`);
      },
    }),
  ),
  ...(['external_id', 'cpf'] as const).map(
    (filter): Check => ({
      id: `customers.list.filter-${filter.replace('_', '-')}`,
      title: `GET /customers?${filter}= answers exactly the matching customer`,
      spec: 'Endpoints › Customers › GET /customers',
      needs: 'black-box',
      async run(ctx) {
        const created = await registerCustomer(ctx);
        await registerCustomer(ctx, { label: 'another' });
        const answer = await (await ctx.partner()).call('GET', '/customers', {
          query: { [filter]: String(created.request[filter]) },
        });
        const body = okBody(answer, `GET /customers?${filter}=`);
        const ids = Array.isArray(body.data) ? body.data.map((item) => (item as { id?: unknown }).id) : [];
        expectEqual(ids, [created.id], `the customers matching ${filter}`, answer);
      },
    }),
  ),
];
