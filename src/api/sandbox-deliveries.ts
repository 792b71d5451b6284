import { createRoute, z } from '@hono/zod-openapi';
import { notFound } from '../domain/errors.js';
import { paginate } from '../domain/pagination.js';
import type { AppDeps } from '../http/deps.js';
import { sendJson } from '../http/json-text.js';
import { createRouter } from '../http/router.js';
import { listText, viewText } from '../lib/view-text.js';
import type { SortedIndex } from '../store/indexes.js';
import type { DeliveryRecord } from '../store/records.js';
import { deliveryView, redeliver } from '../webhooks/deliveries.js';
import { domainContext } from './context.js';
import { COMMON_ERRORS, json, listOf, PageQuery, problemResponses } from './schemas/common.js';
import { DeliveryQuery, DeliverySchema, RedeliverBody, RedeliveryResultSchema } from './schemas/webhooks.js';

/** A delivery's JSON, serialised once per row version (each attempt makes a new one). */
const deliveryJson = viewText(deliveryView);

const tags = ['Sandbox control'];

const list = createRoute({
  method: 'get',
  path: '/sandbox/deliveries',
  operationId: 'listSandboxDeliveries',
  tags,
  summary: 'List webhook deliveries, newest first, each with its attempts',
  description:
    'One delivery per event and endpoint. `status`: pending (an attempt is scheduled at `next_attempt_at`), queued (due, waiting for a sending slot: an endpoint sends one delivery at a time in event order, a partner holds at most 16 slots), sending (in flight), succeeded, failed (retries used up, or 410 Gone), skipped (endpoint disabled when the attempt fell due), cancelled (endpoint deleted).',
  request: { query: PageQuery.extend(DeliveryQuery.shape) },
  responses: {
    200: json(listOf(DeliverySchema, 'DeliveryList'), 'Deliveries'),
    ...problemResponses(400, ...COMMON_ERRORS),
  },
});

const show = createRoute({
  method: 'get',
  path: '/sandbox/deliveries/{delivery_id}',
  operationId: 'getSandboxDelivery',
  tags,
  summary: 'Read one delivery with every attempt: status code, the first 4 KB of the answer, timing',
  request: { params: z.object({ delivery_id: z.string() }) },
  responses: { 200: json(DeliverySchema, 'The delivery'), ...problemResponses(404, ...COMMON_ERRORS) },
});

const resend = createRoute({
  method: 'post',
  path: '/sandbox/events/{event_id}/redeliver',
  operationId: 'redeliverSandboxEvent',
  tags,
  summary: 'Send a logged event again, now',
  description:
    'To every active endpoint whose patterns match, or only to `endpoint_id` (sent even if its patterns do not match). Each gets a new delivery with the full retry schedule; `webhook-id` stays the event id.',
  request: {
    params: z.object({ event_id: z.string() }),
    body: { required: false, content: { 'application/json': { schema: RedeliverBody } } },
  },
  responses: {
    202: json(RedeliveryResultSchema, 'The new deliveries (sent asynchronously)'),
    ...problemResponses(400, 404, 422, ...COMMON_ERRORS),
  },
});

export function sandboxDeliveryRoutes(deps: AppDeps) {
  const app = createRouter();
  const store = deps.store;

  app.openapi(list, (c) => {
    const { limit, starting_after, event_id, endpoint_id, status, trigger } = c.req.valid('query');
    const partnerId = c.get('partner').id;
    // Page through the most selective filter's own list; the other filters narrow it.
    const [index, group]: [SortedIndex<DeliveryRecord>, string] =
      event_id !== undefined
        ? [store.deliveryIdx.byEvent, `${partnerId}|${event_id}`]
        : endpoint_id !== undefined
          ? [store.deliveryIdx.byEndpoint, `${partnerId}|${endpoint_id}`]
          : status !== undefined
            ? [store.deliveryIdx.byStatus, `${partnerId}|${status}`]
            : [store.deliveryIdx.byPartner, partnerId];
    const matches = (row: DeliveryRecord) =>
      (endpoint_id === undefined || row.endpoint_id === endpoint_id) &&
      (status === undefined || row.status === status) &&
      (trigger === undefined || row.trigger === trigger);
    const page = paginate(
      index,
      group,
      { limit, order: 'desc', startingAfter: starting_after },
      (id) => {
        const row = store.deliveries.get(id);
        return row && row.partner_id === partnerId ? row : undefined;
      },
      matches,
    );
    return sendJson(c, listText(page.data.map(deliveryJson), page.has_more), 200);
  });

  app.openapi(show, (c) => {
    const id = c.req.valid('param').delivery_id;
    const row = store.deliveries.get(id);
    if (!row || row.partner_id !== c.get('partner').id) throw notFound('delivery', id);
    return sendJson(c, deliveryJson(row), 200);
  });

  app.openapi(resend, (c) => {
    const eventId = c.req.valid('param').event_id;
    const rows = redeliver(domainContext(deps, c), eventId, c.req.valid('json')?.endpoint_id);
    return c.json({ event_id: eventId, deliveries: rows.map(deliveryView) }, 202);
  });

  return app;
}
