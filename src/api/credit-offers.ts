import { createRoute, z } from '@hono/zod-openapi';
import { findCustomer } from '../domain/credit/customers.js';
import { findOffer, offerJson } from '../domain/credit/offers.js';
import { listOffers } from '../domain/credit/queries.js';
import { createSimulation, simulationJson } from '../domain/credit/simulations.js';
import type { AppDeps } from '../http/deps.js';
import { sendJson } from '../http/json-text.js';
import { createRouter } from '../http/router.js';
import { listText } from '../lib/view-text.js';
import { domainContext } from './context.js';
import {
  COMMON_ERRORS,
  IdempotencyHeader,
  json,
  listOf,
  PageQuery,
  problemResponses,
} from './schemas/common.js';
import {
  CreateSimulationBody,
  CreditOfferIdParam,
  CreditOfferSchema,
  OfferListQuery,
  OfferStatus,
  SimulationSchema,
} from './schemas/credit.js';

const tags = ['Credit offers'];
const OfferList = listOf(CreditOfferSchema, 'CreditOfferList');

const list = createRoute({
  method: 'get',
  path: '/credit-offers',
  operationId: 'listCreditOffers',
  tags,
  summary: "List the partner's credit offers, newest first",
  description: 'Filter by `customer_id` (404 when no such customer) and `status`.',
  request: { query: PageQuery.merge(OfferListQuery) },
  responses: { 200: json(OfferList, 'Credit offers'), ...problemResponses(400, 404, ...COMMON_ERRORS) },
});

const show = createRoute({
  method: 'get',
  path: '/credit-offers/{credit_offer_id}',
  operationId: 'getCreditOffer',
  tags,
  summary: 'Read a credit offer',
  request: { params: CreditOfferIdParam },
  responses: { 200: json(CreditOfferSchema, 'The offer'), ...problemResponses(404, ...COMMON_ERRORS) },
});

const ofCustomer = createRoute({
  method: 'get',
  path: '/customers/{customer_id}/credit-offers',
  operationId: 'listCustomerCreditOffers',
  tags,
  summary: "List one customer's credit offers, newest first",
  request: {
    params: z.object({ customer_id: z.string().openapi({ param: { name: 'customer_id', in: 'path' } }) }),
    query: PageQuery.extend({
      status: OfferStatus.optional().openapi({ param: { name: 'status', in: 'query' } }),
    }),
  },
  responses: { 200: json(OfferList, 'Credit offers'), ...problemResponses(400, 404, ...COMMON_ERRORS) },
});

const simulate = createRoute({
  method: 'post',
  path: '/credit-offers/{credit_offer_id}/simulations',
  operationId: 'createSimulation',
  tags,
  summary: 'Simulate a loan on an offer (synchronous); the latest simulation is the one to contract',
  description:
    "Price table at the offer's monthly rate, IOF (0.38 % flat + daily rate per day up to 365 days), fees (MEI offers only), net amount and CET, dated by the partner clock (its São Paulo date). 422 when the amount or the count is outside the offer (each in `errors[]`) or the offer is not available.",
  request: {
    params: CreditOfferIdParam,
    headers: IdempotencyHeader,
    body: { required: true, content: { 'application/json': { schema: CreateSimulationBody } } },
  },
  responses: {
    201: json(SimulationSchema, 'The simulation'),
    ...problemResponses(400, 404, 422, ...COMMON_ERRORS),
  },
});

export function creditOfferRoutes(deps: AppDeps) {
  const app = createRouter();

  app.openapi(list, (c) => {
    const { limit, starting_after, customer_id, status } = c.req.valid('query');
    const page = listOffers(domainContext(deps, c), { customer_id, status }, { limit, starting_after });
    return sendJson(c, listText(page.data.map(offerJson), page.has_more), 200);
  });

  app.openapi(show, (c) => {
    const offer = findOffer(domainContext(deps, c), c.req.valid('param').credit_offer_id);
    return sendJson(c, offerJson(offer), 200);
  });

  app.openapi(ofCustomer, (c) => {
    const ctx = domainContext(deps, c);
    const customer = findCustomer(ctx, c.req.valid('param').customer_id);
    const { limit, starting_after, status } = c.req.valid('query');
    const page = listOffers(ctx, { customer_id: customer.id, status }, { limit, starting_after });
    return sendJson(c, listText(page.data.map(offerJson), page.has_more), 200);
  });

  app.openapi(simulate, (c) => {
    const row = createSimulation(
      domainContext(deps, c),
      c.req.valid('param').credit_offer_id,
      c.req.valid('json'),
    );
    return sendJson(c, simulationJson(row), 201);
  });

  return app;
}
