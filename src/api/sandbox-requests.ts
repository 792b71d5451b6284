import { createRoute, z } from '@hono/zod-openapi';
import type { AppDeps } from '../http/deps.js';
import { sendJson } from '../http/json-text.js';
import { createRouter } from '../http/router.js';
import { getRequest, holdsRequest, listRequests } from '../inspector/request-log.js';
import { type JsonText, listText, TextsById } from '../lib/view-text.js';
import type { RequestRecord } from '../store/request-records.js';
import { COMMON_ERRORS, json, listOf, PageQuery, problemResponses } from './schemas/common.js';
import { RequestLogEntrySchema, RequestLogQuery } from './schemas/requests.js';

const tags = ['Sandbox control'];

const list = createRoute({
  method: 'get',
  path: '/sandbox/requests',
  operationId: 'listSandboxRequests',
  tags,
  summary: "List the partner's recent API requests (request inspector), newest first",
  description:
    'Each authenticated request with its status, duration, idempotency key and replay flag, request and response bodies (secrets redacted). Kept per partner in a ring (`--request-log-size`, default 1000). Filters: `status` (`404` or `4xx`), `method`, `path` prefix. A problem answer names its request in `instance` after `#`.',
  request: { query: PageQuery.extend(RequestLogQuery.shape) },
  responses: {
    200: json(listOf(RequestLogEntrySchema, 'RequestLogList'), 'Requests'),
    ...problemResponses(400, ...COMMON_ERRORS),
  },
});

const show = createRoute({
  method: 'get',
  path: '/sandbox/requests/{request_id}',
  operationId: 'getSandboxRequest',
  tags,
  summary: 'Read one request of the inspector by its Request-Id',
  request: { params: z.object({ request_id: z.string() }) },
  responses: {
    200: json(RequestLogEntrySchema, 'The request'),
    ...problemResponses(404, ...COMMON_ERRORS),
  },
});

/** The public shape of a logged request (the row without its bookkeeping). */
export function requestView(row: RequestRecord) {
  const headers: Record<string, string> = {};
  if (row.authorization !== null) headers.authorization = row.authorization;
  if (row.content_type !== null) headers['content-type'] = row.content_type;
  if (row.idempotency_key !== null) headers['idempotency-key'] = row.idempotency_key;
  if (row.user_agent !== null) headers['user-agent'] = row.user_agent;
  return {
    id: row.id,
    method: row.method,
    path: row.path,
    query: row.query,
    status: row.status,
    duration_ms: row.duration_cms / 100,
    idempotency_key: row.idempotency_key,
    idempotent_replayed: row.idempotent_replayed,
    error_code: row.error_code,
    request_headers: headers,
    request_body: row.request_body,
    response_body: parseOrText(row.response_text),
    created_at: new Date(row.created_at_ms).toISOString(),
    fault: row.fault ?? null,
  };
}

/** The stored answer as JSON again (a text that is not JSON is shown as the text). */
function parseOrText(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function sandboxRequestRoutes(deps: AppDeps) {
  const app = createRouter();
  // An entry never changes under its id: its JSON is made once (see TextsById for the bound). Kept
  // by partner and id, so a text can only ever answer the partner whose log holds that entry.
  const texts = new TextsById();
  const keyOf = (partnerId: string, id: string) => `${partnerId}|${id}`;
  const entryJson = (row: RequestRecord) => {
    const key = keyOf(row.partner_id, row.id);
    let text = texts.get(key);
    if (text === undefined) {
      text = JSON.stringify(requestView(row));
      texts.keep(key, text);
    }
    return text as JsonText<ReturnType<typeof requestView>>;
  };

  app.openapi(list, (c) => {
    const { limit, starting_after, status, method, path } = c.req.valid('query');
    const page = listRequests(
      deps.store,
      c.get('partner').id,
      { status, method, path },
      { limit, startingAfter: starting_after },
    );
    return sendJson(c, listText(page.data.map(entryJson), page.has_more), 200);
  });

  app.openapi(show, (c) => {
    const partnerId = c.get('partner').id;
    const id = c.req.valid('param').request_id;
    // A kept text skips decoding the entry, once the log is seen to still hold it.
    const kept = texts.get(keyOf(partnerId, id)) as JsonText<ReturnType<typeof requestView>> | undefined;
    if (kept !== undefined && holdsRequest(deps.store, partnerId, id)) return sendJson(c, kept, 200);
    return sendJson(c, entryJson(getRequest(deps.store, partnerId, id)), 200);
  });

  return app;
}
