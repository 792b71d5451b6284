// Errors and scope ("Errors", "Endpoints › Conventions", "What the service does"): the problem
// format, 401 on every endpoint without a token, malformed JSON, and data scoped to the partner.
import { okBody } from '../context.js';
import { availableOffer } from '../flows/credit.js';
import { activeCustomer, registerCustomer } from '../flows/customers.js';
import type { Check } from '../types.js';
import { expectEqual, expectStatus, expectTrue, skip } from '../verdict.js';
import { expectProblem } from './problems.js';

const X = `${'0'.repeat(31)}9`;

/** Every endpoint of the spec but POST /auth/token, with an id where the path takes one. */
const PROTECTED: Array<[string, string]> = [
  ['POST', '/auth/credentials'],
  ['GET', '/auth/credentials'],
  ['DELETE', `/auth/credentials/cid_${X}`],
  ['POST', '/customers'],
  ['GET', '/customers'],
  ['GET', `/customers/cust_${X}`],
  ['PATCH', `/customers/cust_${X}`],
  ['POST', `/customers/cust_${X}/documents`],
  ['POST', `/customers/cust_${X}/biometrics`],
  ['GET', `/customers/cust_${X}/credit-offers`],
  ['GET', '/credit-offers'],
  ['GET', `/credit-offers/co_${X}`],
  ['POST', `/credit-offers/co_${X}/simulations`],
  ['POST', '/loans'],
  ['GET', `/loans/ln_${X}`],
  ['GET', `/loans/ln_${X}/transactions`],
  ['POST', '/webhooks/endpoints'],
  ['GET', '/webhooks/endpoints'],
  ['GET', `/webhooks/endpoints/we_${X}`],
  ['PATCH', `/webhooks/endpoints/we_${X}`],
  ['DELETE', `/webhooks/endpoints/we_${X}`],
  ['POST', `/webhooks/endpoints/we_${X}/secret/rotate`],
];

export const ERROR_CHECKS: Check[] = [
  {
    id: 'errors.unauthenticated.every-endpoint',
    title: 'every endpoint but POST /auth/token answers 401 without a token',
    spec: 'Endpoints › Conventions; Authentication 8; Errors rule 3',
    needs: 'black-box',
    async run(ctx) {
      const api = await ctx.partner();
      const wrong: string[] = [];
      for (const [method, path] of PROTECTED) {
        const body = method === 'POST' || method === 'PATCH' ? {} : undefined;
        const answer = await api.raw(method, path, { authorization: null, body });
        if (answer.status !== 401) wrong.push(`${method} ${path} → ${answer.status}`);
        else expectProblem(answer, 401);
      }
      expectEqual(wrong, [], 'endpoints that did not answer 401 without a token');
    },
  },
  {
    id: 'errors.problem.not-found',
    title: 'a 404 is a problem: application/problem+json with type, title, status and detail',
    spec: 'Errors',
    needs: 'black-box',
    async run(ctx) {
      const answer = await (await ctx.partner()).call('GET', `/customers/cust_${X}`);
      expectStatus(answer, 404, 'GET /customers/{unknown}');
      expectProblem(answer, 404);
    },
  },
  {
    id: 'errors.problem.conflict',
    title: 'a 409 is a problem with type, title, status and detail',
    spec: 'Errors; Errors rule 1',
    needs: 'black-box',
    async run(ctx) {
      const first = await registerCustomer(ctx);
      const answer = await (await ctx.partner()).call('POST', '/customers', {
        body: { ...first.request, external_id: ctx.externalId('conflict') },
      });
      expectStatus(answer, 409, 'the conflicting registration');
      expectProblem(answer, 409);
    },
  },
  {
    id: 'errors.problem.validation',
    title: 'a refused body is a 400/422 problem; its errors[] items (when present) have param and detail',
    spec: 'Errors (errors[].param, errors[].detail)',
    needs: 'black-box',
    async run(ctx) {
      const answer = await (await ctx.partner()).call('POST', '/customers', {
        body: { cpf: 12345, email: 'not-an-email', phone: 'nope' },
      });
      expectStatus(answer, [400, 422], 'POST /customers with fields of the wrong type and format');
      const problem = expectProblem(answer);
      const errors = problem.errors as Array<Record<string, unknown>> | undefined;
      if (errors !== undefined)
        expectTrue(errors.length > 0, 'errors[] is present but empty', 'the field problems', errors, answer);
    },
  },
  {
    id: 'errors.malformed-json',
    title: 'a body that is not JSON is answered 400 (problem)',
    spec: 'Endpoints › Customers › POST /customers (400); Errors',
    needs: 'black-box',
    async run(ctx) {
      const answer = await (await ctx.partner()).call('POST', '/customers', {
        raw: '{"cpf": ',
        headers: { 'content-type': 'application/json' },
      });
      expectStatus(answer, 400, 'POST /customers with malformed JSON');
      expectProblem(answer, 400);
    },
  },
  {
    id: 'errors.credit-offers.bad-filter',
    title: 'GET /credit-offers with a status outside available|accepted|expired is answered 400',
    spec: 'Endpoints › Credit offers › GET /credit-offers; Errors (status codes by endpoint)',
    needs: 'black-box',
    async run(ctx) {
      const answer = await (await ctx.partner()).call('GET', '/credit-offers', {
        query: { status: 'conformance_unknown' },
      });
      expectStatus(answer, 400, 'GET /credit-offers?status=conformance_unknown');
      expectProblem(answer, 400);
    },
  },
  {
    id: 'errors.rate-limit',
    title: 'a request over the rate limit is answered 429 (problem format)',
    spec: 'Errors rule 5; Limits',
    needs: 'controlled',
    async run(ctx) {
      const api = await ctx.partner();
      await api.token();
      const answers = await Promise.all(
        Array.from({ length: 250 }, () =>
          api.call('GET', '/customers', { query: { limit: 1 }, noRetry: true }),
        ),
      );
      const limited = answers.find((answer) => answer.status === 429);
      if (!limited)
        skip(
          '250 requests at once were all answered: the target enforces no rate limit this low (its values are not shown)',
        );
      expectProblem(limited, 429);
      const other = answers.filter((answer) => answer.status !== 200 && answer.status !== 429);
      expectEqual(
        other.map((answer) => answer.status),
        [],
        'statuses other than 200 and 429',
      );
    },
  },
  {
    id: 'scope.customers',
    title: "another partner's customer is unknown (404) and never listed",
    spec: 'What the service does (all data is scoped to the authenticated partner)',
    needs: 'controlled',
    async run(ctx) {
      const customer = await registerCustomer(ctx);
      const other = await ctx.otherPartner();
      expectStatus(
        await other.call('GET', `/customers/${customer.id}`),
        404,
        "GET of another partner's customer",
      );
      const listed = okBody(
        await other.call('GET', '/customers', { query: { cpf: String(customer.request.cpf) } }),
        'GET /customers?cpf=',
      );
      expectEqual(listed.data, [], "the other partner's list filtered by the customer's cpf");
      const registered = await other.call('POST', '/customers', { body: customer.request });
      expectStatus(
        registered,
        201,
        'the same cpf and external_id registered by another partner (a customer of its own)',
      );
    },
  },
  {
    id: 'scope.credit-offers',
    title: "another partner's credit offer is unknown (404)",
    spec: 'What the service does (all data is scoped to the authenticated partner); Errors rule 4',
    needs: 'controlled',
    async run(ctx) {
      const customer = await activeCustomer(ctx);
      const offer = await availableOffer(ctx, customer.id);
      const other = await ctx.otherPartner();
      expectStatus(
        await other.call('GET', `/credit-offers/${String(offer.id)}`),
        404,
        "GET of another partner's offer",
      );
      const simulated = await other.call('POST', `/credit-offers/${String(offer.id)}/simulations`, {
        body: {
          requested_amount: String(offer.min_amount),
          installment_count: offer.installments ?? offer.min_installments,
        },
      });
      expectStatus(simulated, 404, "a simulation of another partner's offer");
    },
  },
];
