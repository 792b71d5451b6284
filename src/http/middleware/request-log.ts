import type { Context, MiddlewareHandler } from 'hono';
import { redact, redactAuthorization } from '../../inspector/redact.js';
import { appendRequest, DEFAULT_REQUEST_LOG_SIZE } from '../../inspector/request-log.js';
import type { JsonValue } from '../../store/records.js';
import type { AppDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { addResponseHeader, rawQuery, requestHeader, responseHeader } from '../node-fast-path.js';

/** Request headers the inspector keeps (the rest says little about an integration problem). */
const KEPT_HEADERS = ['authorization', 'content-type', 'idempotency-key', 'user-agent'] as const;
/** Paths whose responses are not kept: they quote the log itself, which would nest without end. */
const SELF_PREFIX = '/v3/sandbox/requests';
/** A request body that is not JSON or a form is kept as this much text at most. */
const MAX_TEXT_CHARS = 4096;

type JsonFn = (object: unknown, ...rest: unknown[]) => Response;
type BodyFn = (data: unknown, ...rest: unknown[]) => Response;

/**
 * Gives every /v3 request its `Request-Id` and, once the partner is known, records the exchange in
 * the partner's log (`GET /v3/sandbox/requests`). Requests that never got past authentication
 * belong to no partner and are not kept. The response body is taken from the object the handler
 * serialized (no second read of the response), so the hot path pays a walk for redaction and one
 * row insert, nothing more.
 */
export function requestLog(deps: AppDeps): MiddlewareHandler<AppEnv> {
  const size = deps.config.requestLogSize ?? DEFAULT_REQUEST_LOG_SIZE;
  const elapsed = () => performance.now();

  return async (c, next) => {
    const requestId = deps.ids('req_');
    c.set('requestId', requestId);
    addResponseHeader(c, 'Request-Id', requestId);
    if (size <= 0) return next();

    const started = elapsed();
    // Captured as the handler or the problem renderer produce them; a replayed idempotent
    // response is read back below instead.
    let sent: unknown;
    let sentText: string | undefined;
    const json = c.json as unknown as JsonFn;
    (c as unknown as { json: JsonFn }).json = (object, ...rest) => {
      sent = object;
      return json(object, ...rest);
    };
    const body = c.body as unknown as BodyFn;
    (c as unknown as { body: BodyFn }).body = (data, ...rest) => {
      if (typeof data === 'string') sentText = data;
      return body(data, ...rest);
    };

    await next();

    const partner = c.get('partner');
    if (!partner) return;
    const method = c.req.method;
    const path = c.req.path;
    const status = c.res.status;
    const idempotencyKey = requestHeader(c, 'idempotency-key') ?? null;
    const replayed = idempotencyKey !== null && responseHeader(c, 'idempotent-replayed') === 'true';
    let responseBody: JsonValue | null = null;
    if (path.startsWith(SELF_PREFIX)) {
      responseBody = null;
    } else if (sent !== undefined && !replayed) {
      responseBody = redact(sent);
    } else if (sentText !== undefined && !replayed) {
      responseBody = redact(parseJson(sentText));
    } else if (isJson(c.res.headers.get('content-type'))) {
      responseBody = redact(parseJson(await c.res.clone().text()));
    }
    const clock = c.get('clock') ?? deps.engine.clock(partner.id);
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
        duration_ms: Math.round((elapsed() - started) * 100) / 100,
        idempotency_key: idempotencyKey,
        idempotent_replayed: replayed,
        error_code: status >= 400 ? errorCode(responseBody) : null,
        request_headers: keptHeaders(c),
        request_body: method === 'GET' || method === 'HEAD' ? null : await requestBody(c),
        response_body: responseBody,
        created_at: clock.iso(),
      },
      size,
    );
  };
}

function keptHeaders(c: Context): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = requestHeader(c, name);
    if (value !== undefined) out[name] = name === 'authorization' ? redactAuthorization(value) : value;
  }
  return out;
}

/**
 * The body as the handler read it (Hono caches it), redacted. A body nobody read (the request was
 * refused before its handler ran) is not read now: it may be large, and it told the sandbox nothing.
 */
async function requestBody(c: Context): Promise<JsonValue | null> {
  // Hono keeps the body promises it created, keyed by how the body was read.
  const cache = c.req.bodyCache as Record<string, Promise<unknown> | undefined>;
  const type = requestHeader(c, 'content-type') ?? '';
  if (cache.text !== undefined) {
    const read = await cache.text.catch(() => undefined);
    const text = typeof read === 'string' ? read : undefined;
    if (text === undefined || text === '') return null;
    if (type.includes('application/x-www-form-urlencoded')) {
      return redact(Object.fromEntries(new URLSearchParams(text)));
    }
    const parsed = parseJson(text);
    return redact(parsed === undefined ? text.slice(0, MAX_TEXT_CHARS) : parsed);
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

function isJson(type: string | null): boolean {
  return type !== null && /json/i.test(type);
}

function errorCode(body: JsonValue | null): string | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  return typeof body.code === 'string' ? body.code : null;
}
