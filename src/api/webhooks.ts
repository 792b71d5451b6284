import { createRoute } from '@hono/zod-openapi';
import { paginate } from '../domain/pagination.js';
import type { AppDeps } from '../http/deps.js';
import { sendJson } from '../http/json-text.js';
import { createRouter } from '../http/router.js';
import { listText } from '../lib/view-text.js';
import { deleteEndpoint } from '../webhooks/delete-endpoint.js';
import {
  createEndpoint,
  DEFAULT_EXPIRE_CURRENT_IN,
  endpointJson,
  endpointView,
  getEndpoint,
  rotateSecret,
  updateEndpoint,
} from '../webhooks/endpoints.js';
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
  CreateWebhookEndpointBody,
  DeletedWebhookEndpointSchema,
  EndpointParams,
  NewWebhookEndpointSchema,
  RotatedSecretSchema,
  RotateSecretBody,
  UpdateWebhookEndpointBody,
  WebhookEndpointSchema,
} from './schemas/webhooks.js';

const tags = ['Webhook endpoints'];

const create = createRoute({
  method: 'post',
  path: '/webhooks/endpoints',
  operationId: 'createWebhookEndpoint',
  tags,
  summary: 'Create a webhook endpoint (the secret is shown only in this response)',
  request: {
    headers: IdempotencyHeader,
    body: { required: true, content: { 'application/json': { schema: CreateWebhookEndpointBody } } },
  },
  responses: {
    201: json(NewWebhookEndpointSchema, 'The endpoint, with its signing secret'),
    ...problemResponses(400, 422, ...COMMON_ERRORS),
  },
});

const list = createRoute({
  method: 'get',
  path: '/webhooks/endpoints',
  operationId: 'listWebhookEndpoints',
  tags,
  summary: "List the partner's webhook endpoints, newest first (no secrets)",
  request: { query: PageQuery },
  responses: {
    200: json(listOf(WebhookEndpointSchema, 'WebhookEndpointList'), 'Endpoints'),
    ...problemResponses(400, ...COMMON_ERRORS),
  },
});

const show = createRoute({
  method: 'get',
  path: '/webhooks/endpoints/{webhook_endpoint_id}',
  operationId: 'getWebhookEndpoint',
  tags,
  summary: 'Read a webhook endpoint (no secret)',
  request: { params: EndpointParams },
  responses: { 200: json(WebhookEndpointSchema, 'The endpoint'), ...problemResponses(404, ...COMMON_ERRORS) },
});

const update = createRoute({
  method: 'patch',
  path: '/webhooks/endpoints/{webhook_endpoint_id}',
  operationId: 'updateWebhookEndpoint',
  tags,
  summary: 'Update a webhook endpoint; only the submitted fields change',
  description:
    '`status: disabled` pauses deliveries without deleting: attempts that fall due while disabled are `skipped`.',
  request: {
    params: EndpointParams,
    body: { required: true, content: { 'application/json': { schema: UpdateWebhookEndpointBody } } },
  },
  responses: {
    200: json(WebhookEndpointSchema, 'The updated endpoint'),
    ...problemResponses(400, 404, 422, ...COMMON_ERRORS),
  },
});

const remove = createRoute({
  method: 'delete',
  path: '/webhooks/endpoints/{webhook_endpoint_id}',
  operationId: 'deleteWebhookEndpoint',
  tags,
  summary: 'Delete a webhook endpoint; its pending retries are cancelled',
  request: { params: EndpointParams },
  responses: {
    200: json(DeletedWebhookEndpointSchema, 'The endpoint was deleted'),
    ...problemResponses(404, ...COMMON_ERRORS),
  },
});

const rotate = createRoute({
  method: 'post',
  path: '/webhooks/endpoints/{webhook_endpoint_id}/secret/rotate',
  operationId: 'rotateWebhookEndpointSecret',
  tags,
  summary: 'Rotate the signing secret',
  description:
    'The current secret keeps signing beside the new one for `expire_current_in` seconds of the partner clock (default 3600; 0: not at all), until `previous_secret_expires_at`. Secrets replaced by earlier rotations keep their own announced expiry: every delivery carries one signature per secret still valid. At most 10 previous secrets sign at once; a rotation that would keep an 11th answers 422 `too_many_previous_secrets`.',
  request: {
    params: EndpointParams,
    headers: IdempotencyHeader,
    body: { required: false, content: { 'application/json': { schema: RotateSecretBody } } },
  },
  responses: {
    200: json(RotatedSecretSchema, 'The new secret'),
    ...problemResponses(400, 404, 422, ...COMMON_ERRORS),
  },
});

export function webhookEndpointRoutes(deps: AppDeps) {
  const app = createRouter();
  const settings = () => ({
    httpHosts: deps.config.webhookHttpHosts,
    publicOnly: deps.config.webhookPublicOnly === true,
  });

  app.openapi(create, (c) => {
    const row = createEndpoint(domainContext(deps, c), c.req.valid('json'), settings());
    return c.json({ ...endpointView(row), secret: row.secret }, 201);
  });

  app.openapi(list, (c) => {
    const { limit, starting_after } = c.req.valid('query');
    const ctx = domainContext(deps, c);
    const page = paginate(
      deps.store.webhookEndpointIdx.byPartner,
      ctx.partnerId,
      { limit, order: 'desc', startingAfter: starting_after },
      (id) => {
        const row = deps.store.webhookEndpoints.get(id);
        return row && row.partner_id === ctx.partnerId ? row : undefined;
      },
    );
    return sendJson(c, listText(page.data.map(endpointJson), page.has_more), 200);
  });

  app.openapi(show, (c) => {
    const row = getEndpoint(domainContext(deps, c), c.req.valid('param').webhook_endpoint_id);
    return sendJson(c, endpointJson(row), 200);
  });

  app.openapi(update, (c) => {
    const row = updateEndpoint(
      domainContext(deps, c),
      c.req.valid('param').webhook_endpoint_id,
      c.req.valid('json'),
      settings(),
    );
    return sendJson(c, endpointJson(row), 200);
  });

  app.openapi(remove, (c) => {
    return c.json(deleteEndpoint(domainContext(deps, c), c.req.valid('param').webhook_endpoint_id), 200);
  });

  app.openapi(rotate, (c) => {
    // Without a body (or a JSON content type) the validator is skipped and the default not applied.
    const expireIn = c.req.valid('json')?.expire_current_in ?? DEFAULT_EXPIRE_CURRENT_IN;
    const result = rotateSecret(domainContext(deps, c), c.req.valid('param').webhook_endpoint_id, expireIn);
    return c.json(result, 200);
  });

  return app;
}
