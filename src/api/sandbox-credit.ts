import { createRoute, z } from '@hono/zod-openapi';
import { clockDate, creditContext } from '../domain/credit/credit-context.js';
import { generateCustomOffer } from '../domain/credit/custom-offers.js';
import { installmentView } from '../domain/credit/installments.js';
import { cancelLoan, declineLoan, failLoan, signLoan } from '../domain/credit/loan-lifecycle.js';
import { findLoan, loanView } from '../domain/credit/loans.js';
import { assertOfferAvailable, expireOffer, findOffer, offerView } from '../domain/credit/offers.js';
import { recordPayment } from '../domain/credit/payments.js';
import type { AppDeps } from '../http/deps.js';
import { createRouter } from '../http/router.js';
import { domainContext } from './context.js';
import { COMMON_ERRORS, json, problemResponses } from './schemas/common.js';
import { CreditOfferIdParam, CreditOfferSchema, GenerateOfferBody } from './schemas/credit.js';
import { FailLoanBody, LoanIdParam, LoanSchema, PaymentBody, PaymentReceiptSchema } from './schemas/loans.js';

const tags = ['Sandbox control'];

const generate = createRoute({
  method: 'post',
  path: '/sandbox/customers/{customer_id}/credit-offers',
  operationId: 'createSandboxCreditOffer',
  tags,
  summary: 'Generate a fresh credit offer for an active customer now',
  description:
    "Terms come from the customer's tier; any of them can be replaced in the body. Emits `credit_offer.available`. Works for the `no_offer` profile too.",
  request: {
    params: z.object({ customer_id: z.string().openapi({ param: { name: 'customer_id', in: 'path' } }) }),
    body: { required: false, content: { 'application/json': { schema: GenerateOfferBody } } },
  },
  responses: {
    201: json(CreditOfferSchema, 'The new offer'),
    ...problemResponses(400, 404, 422, ...COMMON_ERRORS),
  },
});

const expire = createRoute({
  method: 'post',
  path: '/sandbox/credit-offers/{credit_offer_id}/expire',
  operationId: 'expireSandboxCreditOffer',
  tags,
  summary: 'Expire an available offer now (as if valid_until passed)',
  description: 'Emits `credit_offer.expired` with the full offer; a fresh offer follows one day later.',
  request: { params: CreditOfferIdParam },
  responses: {
    200: json(CreditOfferSchema, 'The expired offer'),
    ...problemResponses(404, 422, ...COMMON_ERRORS),
  },
});

function loanAction(path: string, operationId: string, summary: string, description: string) {
  return createRoute({
    method: 'post',
    path: `/sandbox/loans/{loan_id}/${path}`,
    operationId,
    tags,
    summary,
    description,
    request: { params: LoanIdParam },
    responses: {
      200: json(LoanSchema, 'The loan after the move'),
      ...problemResponses(404, 409, ...COMMON_ERRORS),
    },
  });
}

const sign = loanAction(
  'sign',
  'signSandboxLoan',
  'Sign the contract (all signatories)',
  'awaiting_signatures -> signed (`loan.signed`); disbursement starts 2 s later.',
);
const decline = loanAction(
  'decline',
  'declineSandboxLoan',
  'Decline the contract (the customer refuses to sign)',
  'awaiting_signatures -> cancelled (`loan.cancelled` with `reason: signature_declined`).',
);
const cancel = loanAction(
  'cancel',
  'cancelSandboxLoan',
  'Cancel the loan before it is active',
  'Any state before active -> cancelled (`loan.cancelled` with `reason: cancelled`).',
);

const fail = createRoute({
  method: 'post',
  path: '/sandbox/loans/{loan_id}/fail',
  operationId: 'failSandboxLoan',
  tags,
  summary: 'Make contract generation or disbursement fail',
  description:
    '`contract` from processing or contract_generated; `disbursement` from signed or disbursing. -> error (`loan.error` with `error: {code, message}`).',
  request: {
    params: LoanIdParam,
    body: { required: true, content: { 'application/json': { schema: FailLoanBody } } },
  },
  responses: {
    200: json(LoanSchema, 'The loan in error'),
    ...problemResponses(400, 404, 409, ...COMMON_ERRORS),
  },
});

const pay = createRoute({
  method: 'post',
  path: '/sandbox/loans/{loan_id}/payments',
  operationId: 'createSandboxPayment',
  tags,
  summary: 'Record a payment of one installment',
  description:
    "Pays `installment_number` (default: the oldest open one) on the partner clock's date: late charges first, then amount_due; at most `amount_outstanding`. Emits `loan.payment_received`, and `loan.finished` after the last open installment.",
  request: {
    params: LoanIdParam,
    body: { required: true, content: { 'application/json': { schema: PaymentBody } } },
  },
  responses: {
    200: json(PaymentReceiptSchema, 'How the payment was applied'),
    ...problemResponses(400, 404, 422, ...COMMON_ERRORS),
  },
});

export function sandboxCreditRoutes(deps: AppDeps) {
  const app = createRouter();
  const credit = (c: Parameters<typeof domainContext>[1]) =>
    creditContext(domainContext(deps, c), deps.config.publicUrl);

  app.openapi(generate, (c) => {
    const offer = generateCustomOffer(
      domainContext(deps, c),
      c.req.valid('param').customer_id,
      c.req.valid('json') ?? {},
    );
    return c.json(offerView(offer), 201);
  });

  app.openapi(expire, (c) => {
    const ctx = domainContext(deps, c);
    const offer = findOffer(ctx, c.req.valid('param').credit_offer_id);
    assertOfferAvailable(ctx, offer);
    return c.json(offerView(expireOffer(ctx, offer)), 200);
  });

  for (const [route, move] of [
    [sign, signLoan],
    [decline, declineLoan],
    [cancel, cancelLoan],
  ] as const) {
    app.openapi(route, (c) => {
      const ctx = credit(c);
      const loan = move(ctx, findLoan(ctx, c.req.valid('param').loan_id));
      return c.json(loanView(loan, ctx.publicUrl), 200);
    });
  }

  app.openapi(fail, (c) => {
    const ctx = credit(c);
    const loan = failLoan(ctx, findLoan(ctx, c.req.valid('param').loan_id), c.req.valid('json').stage);
    return c.json(loanView(loan, ctx.publicUrl), 200);
  });

  app.openapi(pay, (c) => {
    const ctx = credit(c);
    const receipt = recordPayment(ctx, c.req.valid('param').loan_id, c.req.valid('json'));
    return c.json(
      {
        loan_id: receipt.loan.id,
        transaction_id: receipt.transaction.id,
        installment_number: receipt.transaction.installment_number,
        amount: receipt.amount,
        applied_to_late_charges: receipt.applied_to_late_charges,
        applied_to_installment: receipt.applied_to_installment,
        payment_date: receipt.payment_date,
        transaction: installmentView(receipt.transaction, clockDate(ctx)),
        loan: loanView(receipt.loan, ctx.publicUrl),
      },
      200,
    );
  });

  return app;
}
