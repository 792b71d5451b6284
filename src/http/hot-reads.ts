import type { IncomingMessage, ServerResponse } from 'node:http';
import { customerView } from '../domain/customers/customer-view.js';
import { clockViewAt } from '../engine/engine.js';
import { appendRequest, DEFAULT_REQUEST_LOG_SIZE } from '../inspector/request-log.js';
import { redactAuthorization } from '../lib/redact.js';
import type { CustomerRecord, PartnerRecord } from '../store/records.js';
import type { AccessLog } from './access-log.js';
import type { AppDeps } from './deps.js';
import { headerValue } from './node-fast-path.js';
import { sharedRateLimiter } from './rate-limiter.js';
import { requestLogFlusher } from './request-log-flush.js';
import { tokenCache } from './token-cache.js';

const CUSTOMER_PREFIX = '/v3/customers/';
const CLOCK_PATH = '/v3/sandbox/clock';
const CUSTOMER_ROUTE = '/v3/customers/{customer_id}';

/**
 * The two hottest reads, `GET /v3/sandbox/clock` and `GET /v3/customers/{customer_id}`, answered
 * straight from Node's request when everything about them is ordinary: a token already verified
 * (one map lookup), a partner that exists, a token not expired on its clock, a rate-limit token
 * to spare, an existing customer of that partner, no query string, nothing percent-encoded. The
 * answer is the one the Hono route gives (same body, same `Content-Type`, `Request-Id` and
 * `RateLimit-*` headers, one `writeHead`), recorded in the request inspector with the same fields
 * and printed by the access log. Anything else (a first token, 401, 404, 429, a query, another
 * method or path) returns false before it changes anything, and the full app answers it.
 *
 * The routes stay declared in the OpenAPI app (documentation, validation, `app.request` in
 * tests); this only skips, for these two shapes, the per-request work that cannot change their
 * answer: the Request/Response objects, routing through the middleware chain and the zod parse
 * of a plain string path parameter. Off in shared mode (the cluster gate must see every request).
 */
export type HotReads = (req: IncomingMessage, res: ServerResponse) => boolean;

export function hotReads(deps: AppDeps, accessLog: AccessLog | undefined): HotReads | undefined {
  if (deps.clusterGate) return undefined;
  const tokens = tokenCache(deps.store);
  const rate = deps.config.rateLimit;
  const limiter = rate > 0 ? sharedRateLimiter(deps, rate, deps.realNow) : undefined;
  const logSize = deps.config.requestLogSize ?? DEFAULT_REQUEST_LOG_SIZE;
  const nextId = deps.requestIds ?? deps.ids;
  const metrics = deps.metrics?.recorder;
  const rateLimitText = String(rate);
  // A customer's JSON per row version (rows are immutable: an update is a new object).
  const customerJson = new WeakMap<CustomerRecord, string>();
  // The clock's JSON for the last partner row and clock reading: a
  // frozen clock answers the same text until its row changes, a running one within a millisecond.
  let clockRow: PartnerRecord | undefined;
  let clockMs = Number.NaN;
  let clockJson = '';

  const flushSoon = requestLogFlusher(deps);

  const answer: HotReads = (req, res) => {
    if (req.method !== 'GET') return false;
    const path = req.url ?? '';
    const customerId = path.startsWith(CUSTOMER_PREFIX) ? path.slice(CUSTOMER_PREFIX.length) : undefined;
    if (path !== CLOCK_PATH && !plainSegment(customerId)) return false;
    const started = performance.now();
    const headers = req.headers;
    const authorization = headers.authorization;
    if (authorization === undefined || !authorization.startsWith('Bearer ')) return false;
    const subject = tokens.cached(authorization.slice(7));
    if (!subject) return false;
    const partner = deps.store.partners.get(subject.partnerId);
    if (!partner) return false;
    // A partner with API fault rules goes through the full app, where the rules act.
    if (deps.store.faultRules.size > 0 && deps.store.faultRulesByPartner.rows(partner.id).length > 0)
      return false;
    const clock = deps.engine.clock(partner.id);
    const nowMs = clock.nowMs();
    if (nowMs >= subject.exp * 1000) return false;
    let body: string;
    if (customerId === undefined) {
      if (partner !== clockRow || nowMs !== clockMs) {
        clockJson = JSON.stringify(clockViewAt(partner, nowMs));
        clockRow = partner;
        clockMs = nowMs;
      }
      body = clockJson;
    } else {
      const row = deps.store.customers.get(customerId);
      if (!row || row.partner_id !== partner.id) return false;
      let text = customerJson.get(row);
      if (text === undefined) {
        text = JSON.stringify(customerView(row));
        customerJson.set(row, text);
      }
      body = text;
    }
    // Last check, the only one that changes state: a refused request goes to the full app,
    // which refuses it again with its 429 and headers (nothing was taken).
    if (limiter && !limiter.allow(partner.id)) return false;
    const requestId = nextId('req_');
    const head = limiter
      ? [
          'Request-Id',
          requestId,
          'RateLimit-Limit',
          rateLimitText,
          'RateLimit-Remaining',
          String(limiter.lastRemaining),
          'RateLimit-Reset',
          String(limiter.lastResetSeconds),
          'Content-Type',
          'application/json',
          'Content-Length',
          String(Buffer.byteLength(body)),
        ]
      : [
          'Request-Id',
          requestId,
          'Content-Type',
          'application/json',
          'Content-Length',
          String(Buffer.byteLength(body)),
        ];
    res.writeHead(200, head);
    res.end(body);
    if (logSize > 0) {
      appendRequest(
        deps.store,
        {
          id: requestId,
          seq: deps.store.nextSeq(),
          partner_id: partner.id,
          method: 'GET',
          path,
          query: null,
          status: 200,
          duration_cms: Math.round((performance.now() - started) * 100),
          idempotency_key: headerValue(headers['idempotency-key']) ?? null,
          idempotent_replayed: false,
          error_code: null,
          authorization: redactAuthorization(authorization),
          content_type: headerValue(headers['content-type']) ?? null,
          user_agent: headerValue(headers['user-agent']) ?? null,
          request_body: null,
          // Kept as sent: the log redacts answers on the way out (see RequestRing), as for every entry.
          response_text: body,
          created_at_ms: nowMs,
        },
        logSize,
      );
      flushSoon();
    }
    accessLog?.line('GET', path, 200, started, requestId);
    metrics?.observeRequest(
      'GET',
      customerId === undefined ? CLOCK_PATH : CUSTOMER_ROUTE,
      200,
      (performance.now() - started) / 1000,
    );
    return true;
  };
  // Called outside any handler: a row whose view throws would end the process here. Logged, and
  // the full app answers the request (with its 500 problem) unless an answer was already sent.
  return (req, res) => {
    try {
      return answer(req, res);
    } catch (error) {
      deps.log.error('the hot read path failed; the app answers instead', error);
      return res.headersSent;
    }
  };
}

/** A path segment answered as is: not empty, no further `/`, no query, nothing percent-encoded. */
function plainSegment(segment: string | undefined): segment is string {
  if (segment === undefined || segment === '') return false;
  for (let i = 0; i < segment.length; i++) {
    const code = segment.charCodeAt(i);
    // '/', '?', '%', '#'
    if (code === 47 || code === 63 || code === 37 || code === 35) return false;
  }
  return true;
}
