import { createRoute, z } from '@hono/zod-openapi';
import type { AppDeps } from '../http/deps.js';
import { createRouter } from '../http/router.js';
import { deletePartnerData } from '../store/partner-rows.js';
import { COMMON_ERRORS, json, problemResponses } from './schemas/common.js';
import { ClockSchema } from './schemas/sandbox.js';

const reset = createRoute({
  method: 'post',
  path: '/sandbox/reset',
  operationId: 'resetSandbox',
  tags: ['Sandbox control'],
  summary: "Wipe this partner's data and start its clock over",
  description:
    'Deletes every customer, document, offer, simulation, loan, transaction, webhook endpoint, delivery, event, pending job and idempotency key of the calling partner. The partner, its credentials and its request log stay, so the same token keeps working. The clock returns to the current real time, frozen or running as before.',
  responses: {
    200: json(
      z.object({ deleted: z.number().int(), clock: ClockSchema }).openapi('ResetResult'),
      'What was wiped',
    ),
    ...problemResponses(...COMMON_ERRORS),
  },
});

export function sandboxResetRoutes(deps: AppDeps) {
  const app = createRouter();
  app.openapi(reset, (c) => {
    const partnerId = c.get('partner').id;
    const deleted = deletePartnerData(deps.store, partnerId);
    const clock = deps.engine.restartClock(partnerId);
    return c.json({ deleted, clock }, 200);
  });
  return app;
}
