import { createRoute } from '@hono/zod-openapi';
import { completeLatestSession } from '../domain/customers/biometrics.js';
import { customerView } from '../domain/customers/customer-view.js';
import { approveKycNow, rejectKycItem, requestKycCorrection } from '../domain/customers/kyc-review.js';
import type { AppDeps } from '../http/deps.js';
import { createRouter } from '../http/router.js';
import { domainContext } from './context.js';
import { COMMON_ERRORS, json, problemResponses } from './schemas/common.js';
import { CustomerIdParam, CustomerSchema } from './schemas/customers.js';
import { CompleteBiometricsBody, KycFeedbackBody, KycTypeParam } from './schemas/sandbox-kyc.js';

const tags = ['Sandbox control'];
const DEFAULT_REJECTION = 'Rejected by the reviewer (sandbox control call). Send it again.';
const DEFAULT_CORRECTION = 'The reviewer asked for this field to be corrected (sandbox control call).';

const approve = createRoute({
  method: 'post',
  path: '/sandbox/customers/{customer_id}/kyc/approve',
  operationId: 'approveSandboxKyc',
  tags,
  summary: 'Approve every submitted KYC item now',
  description:
    'Each submitted item (and its document) moves to approved with its own `customer.kyc_updated`; a customer under review with every item approved becomes `active` at once.',
  request: { params: CustomerIdParam },
  responses: { 200: json(CustomerSchema, 'The customer'), ...problemResponses(404, ...COMMON_ERRORS) },
});

const reject = createRoute({
  method: 'post',
  path: '/sandbox/customers/{customer_id}/kyc/{type}/reject',
  operationId: 'rejectSandboxKycItem',
  tags,
  summary: 'Reject a submitted or approved document (or the biometrics)',
  description:
    'The item moves to `pending_resubmission` with `message`, its document to `rejected`; a customer under review goes back to `pending_kyc`.',
  request: {
    params: KycTypeParam,
    body: { required: false, content: { 'application/json': { schema: KycFeedbackBody } } },
  },
  responses: {
    200: json(CustomerSchema, 'The customer'),
    ...problemResponses(400, 404, 409, 422, ...COMMON_ERRORS),
  },
});

const requestCorrection = createRoute({
  method: 'post',
  path: '/sandbox/customers/{customer_id}/kyc/{type}/request-correction',
  operationId: 'requestSandboxKycCorrection',
  tags,
  summary: 'Ask for a data field to be corrected',
  description:
    '`type` is one of `name`, `email`, `phone`, `cnpj`, `trading_name`. A `data` KYC item in `pending_correction` appears (or an existing one reopens); a customer under review goes back to `pending_kyc`. A PATCH of the field submits the correction.',
  request: {
    params: KycTypeParam,
    body: { required: false, content: { 'application/json': { schema: KycFeedbackBody } } },
  },
  responses: {
    200: json(CustomerSchema, 'The customer'),
    ...problemResponses(400, 404, 409, 422, ...COMMON_ERRORS),
  },
});

const completeBiometrics = createRoute({
  method: 'post',
  path: '/sandbox/customers/{customer_id}/biometrics/complete',
  operationId: 'completeSandboxBiometrics',
  tags,
  summary: "Complete the customer's open biometrics session",
  description:
    "What the hosted page's buttons do: `approved` moves the biometrics item to approved, `rejected` to `pending_resubmission`. Needs an open session (409 otherwise).",
  request: {
    params: CustomerIdParam,
    body: { required: true, content: { 'application/json': { schema: CompleteBiometricsBody } } },
  },
  responses: {
    200: json(CustomerSchema, 'The customer'),
    ...problemResponses(400, 404, 409, ...COMMON_ERRORS),
  },
});

export function sandboxKycRoutes(deps: AppDeps) {
  const app = createRouter();

  app.openapi(approve, (c) => {
    const customer = approveKycNow(domainContext(deps, c), c.req.valid('param').customer_id);
    return c.json(customerView(customer), 200);
  });

  app.openapi(reject, (c) => {
    const { customer_id, type } = c.req.valid('param');
    const message = c.req.valid('json').message ?? DEFAULT_REJECTION;
    return c.json(customerView(rejectKycItem(domainContext(deps, c), customer_id, type, message)), 200);
  });

  app.openapi(requestCorrection, (c) => {
    const { customer_id, type } = c.req.valid('param');
    const message = c.req.valid('json').message ?? DEFAULT_CORRECTION;
    return c.json(
      customerView(requestKycCorrection(domainContext(deps, c), customer_id, type, message)),
      200,
    );
  });

  app.openapi(completeBiometrics, (c) => {
    const customer = completeLatestSession(
      domainContext(deps, c),
      c.req.valid('param').customer_id,
      c.req.valid('json').outcome,
    );
    return c.json(customerView(customer), 200);
  });

  return app;
}
