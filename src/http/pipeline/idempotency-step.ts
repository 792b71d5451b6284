import { createHash } from 'node:crypto';
import { ApiError } from '../../domain/errors.js';
import { redactValues } from '../../lib/redact.js';
import type { IdempotencyRecord } from '../../store/records.js';
import type { AppDeps } from '../deps.js';
import { Answer, answer, answerHeader } from './answer.js';
import type { OperationContext } from './operation-context.js';

/**
 * The POST operations the spec lists as accepting `Idempotency-Key` (path below /v3, `{param}`
 * syntax as in their route definitions).
 */
export const IDEMPOTENT_POSTS = new Set([
  '/customers',
  '/customers/{customer_id}/documents',
  '/customers/{customer_id}/biometrics',
  '/credit-offers/{credit_offer_id}/simulations',
  '/loans',
  '/auth/credentials',
  '/webhooks/endpoints',
  '/webhooks/endpoints/{webhook_endpoint_id}/secret/rotate',
]);

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
const REPLAYED_HEADERS = ['content-type', 'location'];
const UTF8 = new TextDecoder();

interface CapturedResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

interface InFlight {
  operation: string;
  /** Resolves with the answer once the first request is done, and whether it was cached. */
  done: Promise<{ captured: CapturedResponse; cached: boolean }>;
}

/**
 * Spec rule 1: a POST carrying `Idempotency-Key` is processed and its answer cached — errors
 * included. Every answer the operation gave is cached (2xx, 400, 404, 409, 422 …); only 5xx is
 * not (the sandbox failed, the retry deserves a new run). 401 and 429 are answered before this
 * step, so they are not cached either.
 *
 * Replays the first final answer for the same (partner, key) for 24 h of the partner clock. The
 * body is not compared (spec rule 3), but the key is bound to the operation (method and path) it
 * was first used on: the same key on another operation answers 422 `idempotency_key_reused`, so a
 * key can never return one operation's answer (a webhook secret, say) to another. A request whose
 * key is still in flight waits for the first and answers its answer.
 */
export function idempotencyStep(deps: AppDeps) {
  const inFlight = new Map<string, InFlight>();

  const keyed = async (c: OperationContext, key: string, operate: () => Promise<Answer>): Promise<Answer> => {
    if (key.length === 0 || key.length > 255) {
      throw new ApiError('validation_failed', 'Idempotency-Key must be 1 to 255 characters.', {
        param: 'Idempotency-Key',
        errors: [{ param: 'Idempotency-Key', detail: 'must be 1 to 255 characters' }],
      });
    }
    const partner = c.get('partner');
    const id = `${partner.id} ${storedKey(key)}`;
    const operation = `${c.facts.method} ${c.req.path}`;

    // Wait for a request with this key still in flight; if its answer was not cached (a 5xx),
    // this one is processed on its own.
    for (let pending = inFlight.get(id); pending; pending = inFlight.get(id)) {
      if (pending.operation !== operation) throw keyReused(operation, pending.operation);
      const first = await pending.done;
      if (first.cached) return replay(first.captured);
    }

    const now = c.get('clock').nowMs();
    const cached = deps.store.idempotency.get(id);
    if (cached && cached.expires_at_ms > now) {
      // Records written before keys were bound to operations carry none and replay as before.
      if (cached.operation !== undefined && cached.operation !== operation) {
        throw keyReused(operation, cached.operation);
      }
      return replay(cached);
    }
    if (cached) deps.store.idempotency.delete(id);

    let settle: (result: { captured: CapturedResponse; cached: boolean }) => void = () => {};
    inFlight.set(id, { operation, done: new Promise((resolve) => (settle = resolve)) });
    try {
      const a = await operate();
      const captured = capture(a);
      const cacheable = captured.status < 500;
      if (cacheable) {
        const row: IdempotencyRecord = {
          id,
          seq: deps.store.nextSeq(),
          partner_id: partner.id,
          operation,
          ...captured,
          expires_at_ms: now + IDEMPOTENCY_TTL_MS,
        };
        deps.store.idempotency.insert(row);
      }
      settle({ captured, cached: cacheable });
      return new Answer(a.status, a.headers, captured.body, a.headed);
    } catch (error) {
      settle({
        captured: { status: 500, headers: { 'content-type': 'application/problem+json' }, body: '{}' },
        cached: false,
      });
      throw error;
    } finally {
      inFlight.delete(id);
    }
  };

  // Without a key there is nothing to look up or keep: the operation runs as it is, no promise added.
  return (c: OperationContext, operate: () => Promise<Answer>): Promise<Answer> => {
    const key = c.facts.header('idempotency-key');
    return key === undefined ? operate() : keyed(c, key, operate);
  };
}

/** Names only the first operation: its answer (which may hold a secret) is never shown. */
function keyReused(operation: string, first: string): ApiError {
  return new ApiError(
    'idempotency_key_reused',
    `This Idempotency-Key was first used on ${first} and cannot be reused on ${operation} within 24 hours. Send a new key for each operation.`,
    { param: 'Idempotency-Key' },
  );
}

function capture(a: Answer): CapturedResponse {
  const headers: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = answerHeader(a.headers, name);
    if (value !== undefined) headers[name] = value;
  }
  const body = typeof a.body === 'string' ? a.body : a.body instanceof Uint8Array ? UTF8.decode(a.body) : '';
  return { status: a.status, headers, body };
}

function replay(captured: CapturedResponse): Answer {
  const headers: string[] = [];
  for (const [name, value] of Object.entries(captured.headers)) headers.push(name, value);
  headers.push('Idempotent-Replayed', 'true');
  return answer(captured.status, headers, captured.body);
}

/**
 * The key as the cache stores it: as sent, unless it looks like a secret (`svc_cs_…`, `whsec_…`),
 * which then never reaches the `--data` file or the database: only its SHA-256 does.
 */
function storedKey(key: string): string {
  return redactValues(key) === key ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`;
}
