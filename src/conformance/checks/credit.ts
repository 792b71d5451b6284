// Credit offers ("CreditOffer", "States › Credit offer", "Endpoints › Credit offers"): generated
// when a customer becomes active, readable, filterable, and expired by time.
import { okBody } from '../context.js';
import { availableOffer } from '../flows/credit.js';
import { activeCustomer, registerCustomer, sharedActiveCustomer } from '../flows/customers.js';
import { KitDecimal as D } from '../money/price.js';
import { CreditOffer } from '../spec/shapes.js';
import { expectShape } from '../spec/validate.js';
import type { Check } from '../types.js';
import { expectEqual, expectStatus, expectTrue } from '../verdict.js';
import { expectProblem } from './problems.js';

const SPEC = 'Endpoints › Credit offers';

export const CREDIT_CHECKS: Check[] = [
  {
    id: 'credit.offers.generated',
    title: 'an active customer has an available credit offer',
    spec: 'States › Credit offer; What the service does 3',
    needs: 'black-box',
    async run(ctx) {
      await availableOffer(ctx, (await sharedActiveCustomer(ctx)).id);
    },
  },
  {
    id: 'credit.offer.fields',
    title: 'a credit offer has every field of the spec (amounts with 2 decimals, installments or a range)',
    spec: 'Resources › CreditOffer',
    needs: 'black-box',
    async run(ctx) {
      const customer = await sharedActiveCustomer(ctx);
      const offer = expectShape(CreditOffer, await availableOffer(ctx, customer.id), 'CreditOffer');
      expectEqual(offer.customer_id, customer.id, 'customer_id of the offer');
      expectTrue(
        new D(offer.min_amount).lte(offer.approved_amount),
        'min_amount is above approved_amount',
        `≤ ${offer.approved_amount}`,
        offer.min_amount,
      );
      expectTrue(
        Date.parse(offer.valid_until) > Date.parse(offer.created_at),
        'the offer is valid until before it was made',
        `after ${offer.created_at}`,
        offer.valid_until,
      );
    },
  },
  {
    id: 'credit.offer.mei-fields',
    title: "a company (MEI) customer's offer has the same fields",
    spec: 'Resources › CreditOffer',
    needs: 'black-box',
    async run(ctx) {
      const customer = await sharedActiveCustomer(ctx, true);
      expectShape(CreditOffer, await availableOffer(ctx, customer.id), 'CreditOffer');
    },
  },
  {
    id: 'credit.offer.get',
    title: 'GET /credit-offers/{id} answers the offer as listed',
    spec: `${SPEC} › GET /credit-offers/{credit_offer_id}`,
    needs: 'black-box',
    async run(ctx) {
      const offer = await availableOffer(ctx, (await sharedActiveCustomer(ctx)).id);
      const answer = await (await ctx.partner()).call('GET', `/credit-offers/${String(offer.id)}`);
      expectStatus(answer, 200, 'GET /credit-offers/{id}');
      const body = expectShape(CreditOffer, answer.body, 'CreditOffer', answer);
      for (const field of [
        'id',
        'customer_id',
        'approved_amount',
        'min_amount',
        'interest_rate',
        'valid_until',
      ] as const) {
        expectEqual(body[field], offer[field], `${field} as listed`, answer);
      }
    },
  },
  {
    id: 'credit.offer.unknown',
    title: 'an unknown credit offer id is answered 404 (problem format)',
    spec: `${SPEC} › GET /credit-offers/{credit_offer_id}; Errors rule 4`,
    needs: 'black-box',
    async run(ctx) {
      const answer = await (await ctx.partner()).call('GET', `/credit-offers/co_${'0'.repeat(31)}1`);
      expectStatus(answer, 404, 'GET /credit-offers/{unknown}');
      expectProblem(answer, 404);
    },
  },
  {
    id: 'credit.offers.filter-customer',
    title: 'GET /credit-offers?customer_id= lists that customer’s offers only',
    spec: `${SPEC} › GET /credit-offers`,
    needs: 'black-box',
    async run(ctx) {
      const customer = await sharedActiveCustomer(ctx);
      const offer = await availableOffer(ctx, customer.id);
      const answer = await (await ctx.partner()).call('GET', '/credit-offers', {
        query: { customer_id: customer.id, limit: 100 },
      });
      const data = okBody(answer, 'GET /credit-offers').data as Array<Record<string, unknown>>;
      expectTrue(
        data.some((item) => item.id === offer.id),
        'the customer’s offer is missing',
        offer.id,
        data.map((item) => item.id),
        answer,
      );
      const others = data.filter((item) => item.customer_id !== customer.id);
      expectEqual(others, [], 'offers of other customers', answer);
    },
  },
  {
    id: 'credit.offers.none-before-active',
    title: 'a customer still in KYC has no offers (an empty list)',
    spec: 'States › Credit offer (generated when the customer reaches active)',
    needs: 'black-box',
    async run(ctx) {
      const customer = await registerCustomer(ctx);
      const answer = await (await ctx.partner()).call('GET', `/customers/${customer.id}/credit-offers`);
      expectEqual(
        okBody(answer, 'GET /customers/{id}/credit-offers').data,
        [],
        'offers of a pending_kyc customer',
        answer,
      );
    },
  },
  {
    id: 'credit.offer.expiry',
    title: 'past valid_until an offer is expired',
    spec: 'States › Credit offer',
    needs: 'controlled',
    async run(ctx) {
      const customer = await activeCustomer(ctx);
      const offer = await availableOffer(ctx, customer.id);
      const api = await ctx.partner();
      const clock = okBody(await ctx.control('GET', '/sandbox/clock'), 'GET /sandbox/clock');
      const seconds = Math.ceil(
        (Date.parse(String(offer.valid_until)) - Date.parse(String(clock.now))) / 1000,
      );
      if (seconds > 1) await ctx.advance(`${seconds - 1}s`);
      expectEqual(
        okBody(await api.call('GET', `/credit-offers/${String(offer.id)}`), 'GET /credit-offers/{id}').status,
        'available',
        'the offer 1 s before valid_until',
      );
      await ctx.advance('2s');
      const after = expectShape(
        CreditOffer,
        okBody(await api.call('GET', `/credit-offers/${String(offer.id)}`), 'GET /credit-offers/{id}'),
        'CreditOffer',
      );
      expectEqual(after.status, 'expired', 'the offer 1 s after valid_until');
    },
  },
];
