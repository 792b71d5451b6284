import { keptRequestBody } from '../../inspector/kept-body.js';
import { appendRequest, DEFAULT_REQUEST_LOG_SIZE } from '../../inspector/request-log.js';
import { redactAuthorization } from '../../lib/redact.js';
import type { JsonValue, PartnerRecord } from '../../store/records.js';
import type { AppDeps } from '../deps.js';
import { requestLogFlusher } from '../request-log-flush.js';
import type { InProcessBindings } from '../self-fetch.js';
import { type Answer, answerHeader } from './answer.js';
import type { OperationContext } from './operation-context.js';

/** Paths whose responses are not kept: they quote the log itself, which would nest without end. */
const SELF_PREFIX = '/v3/sandbox/requests';
const UTF8 = new TextDecoder();

/**
 * The request inspector's side of the request path (`GET /v3/sandbox/requests`): records an
 * answered exchange in its partner's log. Requests that never got past authentication belong to
 * no partner and are not kept. The answer is kept as the text the operation produced, before any
 * compression, and redacted when the log shows or writes it; the request body as the operation
 * read it (a body nobody read is not read now). The entry is appended to the ring once the event
 * loop's turn is over.
 */
export function requestRecorder(deps: AppDeps) {
  const size = deps.config.requestLogSize ?? DEFAULT_REQUEST_LOG_SIZE;
  const flushSoon = requestLogFlusher(deps);

  return (c: OperationContext, a: Answer, started: number, partner: PartnerRecord | undefined): void => {
    // No partner (refused before authentication), or one this instance no longer holds (its
    // lease was taken while the request ran): nothing to log here, and the answer stands.
    if (size <= 0 || !partner || !deps.store.partners.get(partner.id)) return;
    const facts = c.facts;
    const method = facts.method;
    const read = method === 'GET' || method === 'HEAD';
    // The dashboard's own page reads would bury the partner's traffic; its actions are kept.
    if (read && (c.env as Partial<InProcessBindings> | undefined)?.dashboard) return;
    const path = c.req.path;
    // A fault that acted on the wire (reset, timeout, truncation) says what went out instead.
    const fault = c.get('fault');
    const status = fault?.sent ? fault.sent.status : a.status;
    const text = fault?.sent ? fault.sent.text : path.startsWith(SELF_PREFIX) ? null : bodyText(a.body);
    const idempotencyKey = facts.header('idempotency-key') ?? null;
    const authorization = facts.header('authorization');
    const clock = c.get('clock') ?? deps.engine.clock(partner.id);
    appendRequest(
      deps.store,
      {
        id: c.get('requestId'),
        seq: deps.store.nextSeq(),
        partner_id: partner.id,
        method,
        path,
        query: facts.query === '' ? null : facts.query,
        status,
        duration_cms: Math.round((performance.now() - started) * 100),
        idempotency_key: idempotencyKey,
        idempotent_replayed:
          idempotencyKey !== null && answerHeader(a.headers, 'idempotent-replayed') === 'true',
        error_code:
          status >= 400 && text !== null
            ? ((fault?.sent ? null : c.get('problemCode')) ?? errorCode(text))
            : null,
        authorization: authorization === undefined ? null : redactAuthorization(authorization),
        content_type: facts.header('content-type') ?? null,
        user_agent: facts.header('user-agent') ?? null,
        request_body: read ? null : requestBody(c),
        // Kept as sent: the log redacts answers on the way out (see RequestRing), not here.
        response_text: text,
        created_at_ms: clock.nowMs(),
        ...(fault && { fault: { rule_id: fault.rule_id, action: fault.action } }),
      },
      size,
    );
    if (read) flushSoon();
  };
}

function bodyText(body: Answer['body']): string | null {
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return UTF8.decode(body);
  return null;
}

/**
 * The body as the operation read it (Hono keeps what it read in `bodyCache`), redacted. A body
 * nobody read (the request was refused before its handler ran) is not read now: it may be
 * large, and it told the sandbox nothing.
 */
function requestBody(c: OperationContext): JsonValue | null {
  const type = c.facts.header('content-type') ?? '';
  const text = c.facts.textRead;
  if (text !== undefined) return text === '' ? null : keptRequestBody(text, type, c.facts.jsonRead);
  if (c.facts.bodyRead && c.facts.bytesRead > 0)
    return `[${type.split(';')[0] || 'binary'} body not recorded]`;
  return null;
}

function errorCode(text: string): string | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const code = (body as { code?: unknown }).code;
  return typeof code === 'string' ? code : null;
}
