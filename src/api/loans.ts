import { createRoute } from '@hono/zod-openapi';
import { clockDate, creditContext } from '../domain/credit/credit-context.js';
import { installmentJson } from '../domain/credit/installments.js';
import { createLoan, findLoan, loanJson } from '../domain/credit/loans.js';
import { listLoans, listTransactions } from '../domain/credit/queries.js';
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
  CreateLoanBody,
  LoanIdParam,
  LoanListQuery,
  LoanSchema,
  TransactionSchema,
} from './schemas/loans.js';

const tags = ['Loans'];

const create = createRoute({
  method: 'post',
  path: '/loans',
  operationId: 'createLoan',
  tags,
  summary: "Create a loan from an offer's latest simulation",
  description:
    "`credit_offer_id` and `simulation_id` are required; `installments`, `installments_value` and `first_due_date`, when sent, must equal the simulation's. The loan starts `processing` and advances by itself: contract_generated (2 s), awaiting_signatures (1 s later), then waits for the signature; disbursing 2 s after signing, active 3 s later. The offer becomes `accepted`.",
  request: {
    headers: IdempotencyHeader,
    body: { required: true, content: { 'application/json': { schema: CreateLoanBody } } },
  },
  responses: {
    201: {
      ...json(LoanSchema, 'The loan (status processing)'),
      headers: { Location: { schema: { type: 'string' }, description: '/v3/loans/<loan_id>' } },
    },
    ...problemResponses(400, 404, 422, ...COMMON_ERRORS),
  },
});

const list = createRoute({
  method: 'get',
  path: '/loans',
  operationId: 'listLoans',
  tags,
  summary: "List the partner's loans, newest first",
  description: 'Filter by `customer_id` (404 when no such customer) and `status`.',
  request: { query: PageQuery.merge(LoanListQuery) },
  responses: {
    200: json(listOf(LoanSchema, 'LoanList'), 'Loans'),
    ...problemResponses(400, 404, ...COMMON_ERRORS),
  },
});

const show = createRoute({
  method: 'get',
  path: '/loans/{loan_id}',
  operationId: 'getLoan',
  tags,
  summary: 'Read a loan',
  request: { params: LoanIdParam },
  responses: { 200: json(LoanSchema, 'The loan'), ...problemResponses(404, ...COMMON_ERRORS) },
});

const transactions = createRoute({
  method: 'get',
  path: '/loans/{loan_id}/transactions',
  operationId: 'listLoanTransactions',
  tags,
  summary: "List a loan's installments by installment number (read-only)",
  description:
    "One `installment` transaction per installment from `active` on. `days_overdue` and `late_charges` are computed at the partner clock's current date.",
  request: { params: LoanIdParam, query: PageQuery },
  responses: {
    200: json(listOf(TransactionSchema, 'TransactionList'), 'Installments'),
    ...problemResponses(400, 404, ...COMMON_ERRORS),
  },
});

export function loanRoutes(deps: AppDeps) {
  const app = createRouter();

  app.openapi(create, (c) => {
    const ctx = creditContext(domainContext(deps, c), deps.config.publicUrl);
    const loan = createLoan(ctx, c.req.valid('json'));
    c.header('Location', `/v3/loans/${loan.id}`);
    return sendJson(c, loanJson(loan, deps.config.publicUrl), 201);
  });

  app.openapi(list, (c) => {
    const { limit, starting_after, customer_id, status } = c.req.valid('query');
    const page = listLoans(domainContext(deps, c), { customer_id, status }, { limit, starting_after });
    const url = deps.config.publicUrl;
    return sendJson(
      c,
      listText(
        page.data.map((loan) => loanJson(loan, url)),
        page.has_more,
      ),
      200,
    );
  });

  app.openapi(show, (c) => {
    const loan = findLoan(domainContext(deps, c), c.req.valid('param').loan_id);
    return sendJson(c, loanJson(loan, deps.config.publicUrl), 200);
  });

  app.openapi(transactions, (c) => {
    const ctx = domainContext(deps, c);
    const { limit, starting_after } = c.req.valid('query');
    const page = listTransactions(ctx, c.req.valid('param').loan_id, { limit, starting_after });
    const today = clockDate(ctx);
    return sendJson(
      c,
      listText(
        page.data.map((tx) => installmentJson(tx, today)),
        page.has_more,
      ),
      200,
    );
  });

  return app;
}
