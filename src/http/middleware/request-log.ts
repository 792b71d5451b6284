import type { Context, MiddlewareHandler } from 'hono';
import { keptRequestBody } from '../../inspector/kept-body.js';
import { appendRequest, DEFAULT_REQUEST_LOG_SIZE } from '../../inspector/request-log.js';
import { redactAuthorization } from '../../lib/redact.js';
import type { JsonValue } from '../../store/records.js';
import type { AppDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import {
  addResponseHeader,
  headerValue,
  rawQuery,
  requestHeader,
  requestHeaders,
  responseHeader,
  responseText,
} from '../node-fast-path.js';
import { requestLogFlusher } from '../request-log-flush.js';
import type { InProcessBindings } from '../self-fetch.js';

/** Paths whose responses are not kept: they quote the log itself, which would nest without end. */
const SELF_PREFIX = '/v3/sandbox/requests';

/**
 * Gives every /v3 request its `Request-Id` and, once the partner is known, records the exchange in
 * the partner's log (`GET /v3/sandbox/requests`). Requests that never got past authentication
 * belong to no partner and are not kept. The response body is kept as the text the handler
 * produced (read from the response without disturbing the Node adapter's fast path) and redacted
 * when the log shows or writes it. The entry is built before the response goes out and appended
 * to the ring once the event loop's turn is over.
 */
export function requestLog(deps: AppDeps): MiddlewareHandler<AppEnv> {
  const size = deps.config.requestLogSize ?? DEFAULT_REQUEST_LOG_SIZE;
  const elapsed = () => performance.now();
  const nextId = deps.requestIds ?? deps.ids;

  const flushSoon = requestLogFlusher(deps);

  return async (c, next) => {
    const requestId = nextId('req_');
    c.set('requestId', requestId);
    addResponseHeader(c, 'Request-Id', requestId);
    if (size <= 0) return next();
    const started = elapsed();

    await next();

    const partner = c.get('partner');
    // No partner (refused before authentication), or one this instance no longer holds (its
    // lease was taken while the request ran): nothing to log here, and the answer stands.
    if (!partner || !deps.store.partners.get(partner.id)) return;
    const method = c.req.method;
    const read = method === 'GET' || method === 'HEAD';
    // The dashboard's own page reads would bury the partner's traffic; its actions are kept.
    if (read && (c.env as Partial<InProcessBindings> | undefined)?.dashboard) return;
    const durationCms = Math.round((elapsed() - started) * 100);
    const clock = c.get('clock') ?? deps.engine.clock(partner.id);
    // The response text (a streamed body must be cloned before it is sent) and the request body
    // as the handler read it.
    const path = c.req.path;
    const res = c.res;
    // A fault that acted on the wire (reset, timeout, truncation) says what went out instead.
    const fault = c.get('fault');
    const status = fault?.sent ? fault.sent.status : res.status;
    let text = fault?.sent ? fault.sent.text : path.startsWith(SELF_PREFIX) ? undefined : responseText(res);
    if (text instanceof Promise) text = await text;
    const answer = text ?? null;
    const requestBody = read ? null : await readRequestBody(c);
    const headers = requestHeaders(c);
    const idempotencyKey = headerValue(headers['idempotency-key']) ?? null;
    const authorization = headerValue(headers.authorization);
    // Built now and appended once the event loop's turn is over: a waiting entry holds its own few
    // values, not the request's context, so a garbage collection meanwhile has little to copy.
    appendRequest(
      deps.store,
      {
        id: requestId,
        seq: deps.store.nextSeq(),
        partner_id: partner.id,
        method,
        path,
        query: rawQuery(c),
        status,
        duration_cms: durationCms,
        idempotency_key: idempotencyKey,
        idempotent_replayed: idempotencyKey !== null && responseHeader(c, 'idempotent-replayed') === 'true',
        error_code: status >= 400 && answer !== null ? errorCode(answer) : null,
        authorization: authorization === undefined ? null : redactAuthorization(authorization),
        content_type: headerValue(headers['content-type']) ?? null,
        user_agent: headerValue(headers['user-agent']) ?? null,
        request_body: requestBody,
        // Kept as sent: the log redacts answers on the way out (see RequestRing), not here.
        response_text: answer,
        created_at_ms: clock.nowMs(),
        ...(fault && { fault: { rule_id: fault.rule_id, action: fault.action } }),
      },
      size,
    );
    if (read) flushSoon();
  };
}

/**
 * The body as the handler read it (Hono caches it), redacted. A body nobody read (the request was
 * refused before its handler ran) is not read now: it may be large, and it told the sandbox nothing.
 */
async function readRequestBody(c: Context): Promise<JsonValue | null> {
  // Hono keeps the body promises it created, keyed by how the body was read.
  const cache = c.req.bodyCache as Record<string, Promise<unknown> | undefined>;
  const type = requestHeader(c, 'content-type') ?? '';
  if (cache.text !== undefined) {
    const read = await cache.text.catch(() => undefined);
    const text = typeof read === 'string' ? read : undefined;
    if (text === undefined || text === '') return null;
    return keptRequestBody(text, type);
  }
  if (Object.keys(cache).length > 0) {
    return `[${type.split(';')[0] || 'binary'} body not recorded]`;
  }
  return null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function errorCode(text: string): string | null {
  const body = parseJson(text);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const code = (body as { code?: unknown }).code;
  return typeof code === 'string' ? code : null;
}
