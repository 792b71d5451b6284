import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../../domain/errors.js';
import type { IdempotencyRecord } from '../../store/records.js';
import type { AppDeps } from '../deps.js';
import type { AppEnv } from '../env.js';

/**
 * The POST operations the spec lists as accepting `Idempotency-Key` (Hono path syntax, under /v3).
 * Param names must match the routes' own (`:customer_id`, not `:id`): two names for one segment
 * make Hono fall back from its RegExpRouter to the much slower TrieRouter for every request.
 */
export const IDEMPOTENT_POSTS = [
  '/customers',
  '/customers/:customer_id/documents',
  '/customers/:customer_id/biometrics',
  '/credit-offers/:credit_offer_id/simulations',
  '/loans',
  '/auth/credentials',
  '/webhooks/endpoints',
  '/webhooks/endpoints/:webhook_endpoint_id/secret/rotate',
] as const;

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
const REPLAYED_HEADERS = ['content-type', 'location'];

interface CapturedResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Replays the first final response for the same (partner, key) for 24 h of the partner clock.
 * The body is not compared (spec rule 3). 401 never reaches here and 429 happens before it, so
 * neither is cached; 5xx is not cached either, so a retry after a crash is processed again.
 * A request whose key is still in flight waits for the first and answers its response.
 */
export function idempotency(deps: AppDeps): MiddlewareHandler<AppEnv> {
  const inFlight = new Map<string, Promise<CapturedResponse>>();

  return async (c, next) => {
    const key = c.req.header('idempotency-key');
    if (key === undefined) return next();
    if (key.length === 0 || key.length > 255) {
      throw new ApiError('validation_failed', 'Idempotency-Key must be 1 to 255 characters.', {
        param: 'Idempotency-Key',
        errors: [{ param: 'Idempotency-Key', detail: 'must be 1 to 255 characters' }],
      });
    }
    const partner = c.get('partner');
    const id = `${partner.id} ${key}`;
    const now = c.get('clock').nowMs();

    const cached = deps.store.idempotency.get(id);
    if (cached && cached.expires_at_ms > now) return replay(cached);
    if (cached) deps.store.idempotency.delete(id);

    const pending = inFlight.get(id);
    if (pending) return replay(await pending);

    let settle: (response: CapturedResponse) => void = () => {};
    inFlight.set(id, new Promise((resolve) => (settle = resolve)));
    try {
      await next();
      const captured = await capture(c.res);
      c.res = rebuild(captured);
      if (captured.status < 500) {
        const row: IdempotencyRecord = {
          id,
          seq: deps.store.nextSeq(),
          partner_id: partner.id,
          ...captured,
          expires_at_ms: now + IDEMPOTENCY_TTL_MS,
        };
        deps.store.idempotency.insert(row);
      }
      settle(captured);
    } catch (error) {
      settle({ status: 500, headers: { 'content-type': 'application/problem+json' }, body: '{}' });
      throw error;
    } finally {
      inFlight.delete(id);
    }
  };
}

async function capture(res: Response): Promise<CapturedResponse> {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = res.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return { status: res.status, headers, body: await res.text() };
}

function rebuild(captured: CapturedResponse): Response {
  return new Response(captured.body, { status: captured.status, headers: captured.headers });
}

function replay(captured: CapturedResponse): Response {
  const res = rebuild(captured);
  res.headers.set('Idempotent-Replayed', 'true');
  return res;
}
