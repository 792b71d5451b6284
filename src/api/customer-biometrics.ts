import { createRoute } from '@hono/zod-openapi';
import { startBiometricsSession } from '../domain/customers/biometrics.js';
import type { AppDeps } from '../http/deps.js';
import { createRouter } from '../http/router.js';
import { domainContext } from './context.js';
import { COMMON_ERRORS, IdempotencyHeader, json, problemResponses } from './schemas/common.js';
import { BiometricsSessionSchema, CustomerIdParam } from './schemas/customers.js';

const biometrics = createRoute({
  method: 'post',
  path: '/customers/{customer_id}/biometrics',
  operationId: 'createBiometricsSession',
  tags: ['Customers'],
  summary: 'Start a hosted biometrics capture session',
  description:
    'Answers 200 with `session_url` (a hosted page to send the person to or embed in a webview) and `expires_at` (15 minutes of the partner clock). 409 when the biometrics are already approved or the customer is active. Completion is reported by `customer.kyc_updated`.',
  request: { headers: IdempotencyHeader, params: CustomerIdParam },
  responses: {
    200: json(BiometricsSessionSchema, 'The capture session'),
    ...problemResponses(404, 409, 422, ...COMMON_ERRORS),
  },
});

export function customerBiometricsRoutes(deps: AppDeps) {
  const app = createRouter();

  app.openapi(biometrics, (c) => {
    const session = startBiometricsSession(
      domainContext(deps, c),
      c.req.valid('param').customer_id,
      deps.config.publicUrl,
    );
    return c.json(session, 200);
  });

  return app;
}
