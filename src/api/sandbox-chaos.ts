import { createRoute } from '@hono/zod-openapi';
import type { AppDeps } from '../http/deps.js';
import { sendJson } from '../http/json-text.js';
import { createRouter } from '../http/router.js';
import { viewText } from '../lib/view-text.js';
import { chaosView, clearChaos, setChaos } from '../webhooks/chaos.js';
import { getEndpoint } from '../webhooks/endpoints.js';
import { domainContext } from './context.js';
import { COMMON_ERRORS, json, problemResponses } from './schemas/common.js';
import { ChaosBody, ChaosSchema, EndpointParams } from './schemas/webhooks.js';

/** An endpoint's chaos settings as JSON, serialised once per endpoint row version. */
const chaosJson = viewText(chaosView);

const tags = ['Sandbox control'];
const path = '/sandbox/webhooks/endpoints/{webhook_endpoint_id}/chaos';

const put = createRoute({
  method: 'put',
  path,
  operationId: 'setSandboxWebhookChaos',
  tags,
  summary: "Make an endpoint's deliveries misbehave on purpose (duplicates, drops, delays, reordering)",
  description:
    "Proves that a receiver is idempotent and order-independent. `duplicate_rate` sends a successful delivery again with the same `webhook-id`; `drop_rate` fails an attempt before sending (retried on the normal schedule); `max_delay` (up to `1h`) delays each first attempt by a random time on the partner clock; `reorder` lets deliveries overtake each other inside that window. Omitted fields are off. Every act shows in the delivery log (`chaos[]`). Randomness comes from the partner's random stream, so a seeded sandbox replays the same chaos.",
  request: {
    params: EndpointParams,
    body: { required: true, content: { 'application/json': { schema: ChaosBody } } },
  },
  responses: {
    200: json(ChaosSchema, 'The chaos now in force'),
    ...problemResponses(400, 404, ...COMMON_ERRORS),
  },
});

const get = createRoute({
  method: 'get',
  path,
  operationId: 'getSandboxWebhookChaos',
  tags,
  summary: "Read an endpoint's chaos settings",
  request: { params: EndpointParams },
  responses: { 200: json(ChaosSchema, 'The chaos settings'), ...problemResponses(404, ...COMMON_ERRORS) },
});

const del = createRoute({
  method: 'delete',
  path,
  operationId: 'deleteSandboxWebhookChaos',
  tags,
  summary: 'Turn chaos off for an endpoint (deliveries already delayed keep their time)',
  request: { params: EndpointParams },
  responses: { 200: json(ChaosSchema, 'Chaos off'), ...problemResponses(404, ...COMMON_ERRORS) },
});

export function sandboxChaosRoutes(deps: AppDeps) {
  const app = createRouter();

  app.openapi(put, (c) => {
    const id = c.req.valid('param').webhook_endpoint_id;
    return sendJson(c, chaosJson(setChaos(domainContext(deps, c), id, c.req.valid('json'))), 200);
  });

  app.openapi(get, (c) => {
    const id = c.req.valid('param').webhook_endpoint_id;
    return sendJson(c, chaosJson(getEndpoint(domainContext(deps, c), id)), 200);
  });

  app.openapi(del, (c) => {
    const id = c.req.valid('param').webhook_endpoint_id;
    return sendJson(c, chaosJson(clearChaos(domainContext(deps, c), id)), 200);
  });

  return app;
}
