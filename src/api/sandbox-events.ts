import { createRoute, z } from '@hono/zod-openapi';
import { notFound } from '../domain/errors.js';
import { paginate } from '../domain/pagination.js';
import type { AppDeps } from '../http/deps.js';
import { sendJson } from '../http/json-text.js';
import { createRouter } from '../http/router.js';
import { listText, viewText } from '../lib/view-text.js';
import type { EventRecord } from '../store/records.js';
import { COMMON_ERRORS, json, listOf, PageQuery, problemResponses } from './schemas/common.js';
import { EventPattern, EventSchema } from './schemas/events.js';

const list = createRoute({
  method: 'get',
  path: '/sandbox/events',
  operationId: 'listSandboxEvents',
  tags: ['Sandbox control'],
  summary: "List the partner's event log, newest first",
  description: 'Filter with `type`: `*`, `<resource>.*` (e.g. `loan.*`) or an exact event name.',
  request: {
    query: PageQuery.extend({
      type: EventPattern.optional().openapi({ param: { name: 'type', in: 'query' }, example: 'loan.*' }),
    }),
  },
  responses: {
    200: json(listOf(EventSchema, 'EventList'), 'Events'),
    ...problemResponses(400, ...COMMON_ERRORS),
  },
});

const show = createRoute({
  method: 'get',
  path: '/sandbox/events/{event_id}',
  operationId: 'getSandboxEvent',
  tags: ['Sandbox control'],
  summary: 'Read one event of the log',
  request: { params: z.object({ event_id: z.string() }) },
  responses: { 200: json(EventSchema, 'The event'), ...problemResponses(404, ...COMMON_ERRORS) },
});

/** The public shape of an event: the delivery envelope plus its id. */
export function eventView(event: EventRecord) {
  return { id: event.id, type: event.type, timestamp: event.timestamp, data: event.data };
}

/** The event's JSON, serialised once per row (events never change). */
const eventJson = viewText(eventView);

export function sandboxEventRoutes(deps: AppDeps) {
  const app = createRouter();
  const store = deps.store;

  app.openapi(list, (c) => {
    const { limit, starting_after, type } = c.req.valid('query');
    const partnerId = c.get('partner').id;
    // Each pattern form has its own index, so a filtered page never scans other events.
    const [index, group] =
      type === undefined || type === '*'
        ? [store.eventsByPartner, partnerId]
        : type.endsWith('.*')
          ? [store.eventsByResource, `${partnerId}|${type}`]
          : [store.eventsByType, `${partnerId}|${type}`];
    const page = paginate(index, group, { limit, order: 'desc', startingAfter: starting_after }, (id) => {
      const event = store.events.get(id);
      return event && event.partner_id === partnerId ? event : undefined;
    });
    return sendJson(c, listText(page.data.map(eventJson), page.has_more), 200);
  });

  app.openapi(show, (c) => {
    const event = store.events.get(c.req.valid('param').event_id);
    if (!event || event.partner_id !== c.get('partner').id) {
      throw notFound('event', c.req.valid('param').event_id);
    }
    return sendJson(c, eventJson(event), 200);
  });

  return app;
}
