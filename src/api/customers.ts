import { createRoute } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { customerJson } from '../domain/customers/customer-view.js';
import { getCustomer } from '../domain/customers/kyc-progress.js';
import { listCustomers } from '../domain/customers/list-customers.js';
import { registerCustomer } from '../domain/customers/register-customer.js';
import { IMMUTABLE_FIELDS, updateCustomer } from '../domain/customers/update-customer.js';
import { ApiError } from '../domain/errors.js';
import type { AppDeps } from '../http/deps.js';
import type { AppEnv } from '../http/env.js';
import { sendJson } from '../http/json-text.js';
import { createRouter } from '../http/router.js';
import { listText } from '../lib/view-text.js';
import type { CustomerSort } from '../store/customer-indexes.js';
import { domainContext } from './context.js';
import { COMMON_ERRORS, IdempotencyHeader, json, listOf, problemResponses } from './schemas/common.js';
import {
  CreateCustomerBody,
  CustomerIdParam,
  CustomerListQuery,
  CustomerSchema,
  UpdateCustomerBody,
} from './schemas/customers.js';

const tags = ['Customers'];

const create = createRoute({
  method: 'post',
  path: '/customers',
  operationId: 'createCustomer',
  tags,
  summary: 'Register a customer (starts KYC)',
  description:
    'The customer starts in `pending_kyc` with the KYC requirements of its profile. The same cpf/cnpj with the same `external_id` answers 200 with the existing customer (a safe retry); with a different `external_id` 409. A shape problem answers 400; CPF/CNPJ check digits that fail answer 422.',
  request: {
    headers: IdempotencyHeader,
    body: { required: true, content: { 'application/json': { schema: CreateCustomerBody } } },
  },
  responses: {
    201: json(CustomerSchema, 'Created; `Location` names the customer'),
    200: json(CustomerSchema, 'Already registered with this cpf/cnpj and external_id'),
    ...problemResponses(400, 409, 422, ...COMMON_ERRORS),
  },
});

const list = createRoute({
  method: 'get',
  path: '/customers',
  operationId: 'listCustomers',
  tags,
  summary: "List the partner's customers",
  description:
    'Sorted by `sort` (`created_at`, `updated_at` or `name`) in `order` (default `desc`); the cursor `starting_after` follows that order and must be an item of the same list (same filters), else 400.',
  request: { query: CustomerListQuery },
  responses: {
    200: json(listOf(CustomerSchema, 'CustomerList'), 'Customers'),
    ...problemResponses(400, ...COMMON_ERRORS),
  },
});

const show = createRoute({
  method: 'get',
  path: '/customers/{customer_id}',
  operationId: 'getCustomer',
  tags,
  summary: 'Read a customer',
  request: { params: CustomerIdParam },
  responses: { 200: json(CustomerSchema, 'The customer'), ...problemResponses(404, ...COMMON_ERRORS) },
});

/** Refuses cpf/external_id in a PATCH with 422 before the schema would call them unknown (400). */
const refuseImmutableFields: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (/^application\/([\w.+-]+\+)?json/i.test(c.req.header('content-type') ?? '')) {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return next(); // the validator answers malformed JSON
    }
    if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
      const sent = IMMUTABLE_FIELDS.filter((field) => Object.hasOwn(body, field));
      if (sent.length > 0) {
        throw new ApiError(
          'immutable_field',
          `${sent.join(' and ')} cannot be changed after the customer is created; remove ${sent.length > 1 ? 'them' : 'it'} from the request.`,
          {
            param: sent[0],
            errors: sent.map((field) => ({
              param: field,
              detail: `${field} cannot be changed`,
              code: 'immutable',
            })),
          },
        );
      }
    }
  }
  return next();
};

const update = createRoute({
  method: 'patch',
  path: '/customers/{customer_id}',
  operationId: 'updateCustomer',
  tags,
  summary: "Update a customer's data (submits requested corrections)",
  description:
    'Only the fields sent change. A field whose `data` KYC item is `pending_correction` is submitted as the correction: KYC resumes and `customer.kyc_updated` follows. `cpf` and `external_id` answer 422.',
  middleware: [refuseImmutableFields] as const,
  request: {
    params: CustomerIdParam,
    body: { required: true, content: { 'application/json': { schema: UpdateCustomerBody } } },
  },
  responses: {
    200: json(CustomerSchema, 'The updated customer'),
    ...problemResponses(400, 404, 409, 422, ...COMMON_ERRORS),
  },
});

export function customerRoutes(deps: AppDeps) {
  const app = createRouter();

  app.openapi(create, (c) => {
    const quota = deps.config.quotas?.customers;
    if (
      quota !== undefined &&
      deps.store.customerIdx.sorted.created_at.all.rows(c.get('partner').id).length >= quota
    ) {
      throw new ApiError(
        'quota_exceeded',
        `This partner holds ${quota} customers, the most this hosted sandbox allows per partner. Reset the partner (POST /v3/sandbox/reset) or create another one.`,
      );
    }
    const { customer, created } = registerCustomer(domainContext(deps, c), c.req.valid('json'));
    c.header('Location', `/v3/customers/${customer.id}`);
    if (created) return sendJson(c, customerJson(customer), 201);
    return sendJson(c, customerJson(customer), 200);
  });

  app.openapi(list, (c) => {
    const query = c.req.valid('query');
    const page = listCustomers(deps.store, c.get('partner').id, {
      ...query,
      sort: query.sort as CustomerSort,
    });
    return sendJson(c, listText(page.data.map(customerJson), page.has_more), 200);
  });

  app.openapi(show, (c) => {
    const customer = getCustomer(domainContext(deps, c), c.req.valid('param').customer_id);
    return sendJson(c, customerJson(customer), 200);
  });

  app.openapi(update, (c) => {
    const customer = updateCustomer(
      domainContext(deps, c),
      c.req.valid('param').customer_id,
      c.req.valid('json'),
    );
    return sendJson(c, customerJson(customer), 200);
  });

  return app;
}
