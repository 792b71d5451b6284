import type { Context, MiddlewareHandler } from 'hono';
import { ApiError } from '../../domain/errors.js';
import { flushFor, WriteFailedError } from '../../store/persistence.js';
import type { PartnerRecord } from '../../store/records.js';
import type { AppDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { errorResponse } from '../error-answer.js';
import {
  checkedText,
  refuseNulInUrl,
  refuseOtherCharsets,
  textKind,
} from '../middleware/well-formed-text.js';
import type { Operation } from '../router.js';
import { admission } from './admission.js';
import { Answer, fromResponse, isAnswer } from './answer.js';
import { faultStep } from './fault-step.js';
import { IDEMPOTENT_POSTS, idempotencyStep } from './idempotency-step.js';
import type { OperationContext } from './operation-context.js';
import { LAST_RESORT } from './problems.js';
import { requestRecorder } from './record.js';
import { MAX_BODY_BYTES } from './request-facts.js';
import { Validation } from './validation.js';

/** An operation ready for the request path: its definition compiled once. */
export interface CompiledOperation {
  /** The route template below /v3 (`/customers/{customer_id}`), as fault rules name it. */
  template: string;
  /** Its whole path template (`/v3/customers/{customer_id}`), as metrics label it. */
  route: string;
  validation: Validation;
  middleware: MiddlewareHandler<AppEnv>[];
  handler: Operation['handler'];
  /** POST, PUT, PATCH or DELETE: the body is checked and the change made durable before the answer. */
  write: boolean;
  /** A POST that takes `Idempotency-Key`. */
  idempotent: boolean;
}

export function compileOperation(operation: Operation): CompiledOperation {
  const method = operation.route.method.toUpperCase();
  const template = operation.route.path;
  return {
    template,
    route: `/v3${template}`,
    validation: new Validation(operation.route),
    middleware: operation.middleware,
    handler: operation.handler,
    write: method !== 'GET' && method !== 'HEAD',
    idempotent: method === 'POST' && IDEMPOTENT_POSTS.has(template),
  };
}

const TOKEN_PATH = '/v3/auth/token';

/** Builds the answer of a /v3 request no operation matched (404, or 405 with `Allow`). */
export type Unmatched = (c: OperationContext) => ApiError;

/**
 * The one request path of every /v3 call, whichever entry received it (Node's server, or a fetch
 * `Request` in-process). One step does the work every call shares — request id, body limit,
 * token (cached) and partner, rate limit, the URL's NUL check, fault rules — synchronously,
 * without a promise per layer; then the operation: its pattern-checked parameters and zod-parsed
 * query, headers and body, its handler called directly; then the answer is completed (`Request-Id`,
 * `RateLimit-*`) and recorded in the request inspector. A read that needs no waiting never makes a
 * promise. Writes read and check their body, pass the idempotency cache and are made durable
 * before they answer. Anything thrown anywhere becomes a problem answer carrying the request id:
 * nothing a request does escapes this function.
 */
export function createPipeline(deps: AppDeps, unmatched: Unmatched) {
  const admit = admission(deps);
  const faults = faultStep(deps);
  const idempotent = idempotencyStep(deps);
  const record = requestRecorder(deps);
  const health = deps.persistence.health;
  const volatile = deps.persistence.volatile === true;

  /**
   * Anything thrown, answered by the app's one error handler (src/http/error-answer.ts): its
   * problem with the request id, on the spec's table endpoints with a status of the row.
   */
  const problem = (c: OperationContext, error: unknown): Answer | Promise<Answer> => {
    const out: unknown = errorResponse(c as unknown as Context<AppEnv>, error, deps, MAX_BODY_BYTES);
    if (isAnswer(out)) return out;
    // Its last resort, a fetch Response carrying its own Request-Id: read as is.
    return fromResponse(out as Response).then((a) => new Answer(a.status, a.headers, a.body, true));
  };

  const finish = (
    c: OperationContext,
    a: Answer,
    started: number,
    partner: PartnerRecord | undefined,
  ): Answer => {
    const done = a.headed ? a : new Answer(a.status, c.head.concat(a.headers), a.body, true);
    try {
      record(c, done, started, partner);
    } catch (error) {
      deps.log.error('recording a request in the request inspector failed', error);
    }
    return done;
  };

  /** Runs a request; `op` undefined: no operation matched its method and path. */
  const run = (
    c: OperationContext,
    op: CompiledOperation | undefined,
    params: Record<string, string>,
  ): Answer | Promise<Answer> => {
    const started = performance.now();
    const requestId = (deps.requestIds ?? deps.ids)('req_');
    c.set('requestId', requestId);
    const head = c.head;
    head.push('Request-Id', requestId);
    let partner: PartnerRecord | undefined;
    let out: Answer | Promise<Answer>;
    try {
      const method = c.facts.method;
      if (method !== 'GET' && method !== 'HEAD') {
        const tooLarge = c.facts.declaredTooLarge();
        if (tooLarge) throw tooLarge;
      }
      partner = admit(c, c.req.path, head);
      refuseNulInUrl(c.facts.target);
      if (faults.applies(partner?.id)) {
        out = faults.run(c, op?.template, head, () => operate(c, op, params));
      } else out = operate(c, op, params);
    } catch (error) {
      out = problem(c, error);
    }
    if (out instanceof Promise) {
      return out.then(
        (a) => finish(c, a, started, partner),
        async (error: unknown) => finish(c, await problem(c, error), started, partner),
      );
    }
    return finish(c, out, started, partner);
  };

  const operate = (
    c: OperationContext,
    op: CompiledOperation | undefined,
    params: Record<string, string>,
  ) => {
    if (!op) throw unmatched(c);
    return op.write ? write(c, op, params) : read(c, op, params);
  };

  /** A read: synchronous unless its handler (or a route middleware) waits. */
  const read = (c: OperationContext, op: CompiledOperation, params: Record<string, string>) => {
    if (op.middleware.length > 0) return withMiddleware(c, op, 0, async () => handle(c, op, params));
    op.validation.checkUrl(c, params);
    const result = op.handler(c);
    return isAnswer(result) ? result : toAnswer(result);
  };

  /** Validation, then the handler: synchronous unless the body is a form or the handler waits. */
  const handle = (
    c: OperationContext,
    op: CompiledOperation,
    params: Record<string, string>,
    bytes?: Uint8Array,
  ): Answer | Promise<Answer> => {
    op.validation.checkUrl(c, params);
    const pending = op.validation.body.check(c, bytes);
    if (pending) return pending.then(() => toAnswer(op.handler(c)));
    return toAnswer(op.handler(c));
  };

  /** A write: its body checked, then the operation, through the idempotency cache, made durable. */
  const write = async (c: OperationContext, op: CompiledOperation, params: Record<string, string>) => {
    // Every answer below is a problem at its own layer, as Hono's compose made it: a refusal of the
    // body or of the operation is an answer the idempotency cache keeps (spec rule 1).
    const operation = async (): Promise<Answer> => {
      try {
        const bytes = await readBody(c, op);
        if (op.middleware.length === 0) return await handle(c, op, params, bytes);
        return await withMiddleware(c, op, 0, async () => handle(c, op, params, bytes));
      } catch (error) {
        return problem(c, error);
      }
    };
    // While the store cannot write, refused before it runs; a token is stateless: clients (and
    // the dashboard's sign-in) still get one, to read with.
    if (!health.writable) {
      if (c.req.path !== TOKEN_PATH) throw health.refusal();
      return op.idempotent ? idempotent(c, operation) : operation();
    }
    const epoch = health.enter();
    try {
      let a: Answer;
      try {
        a = op.idempotent ? await idempotent(c, operation) : await operation();
      } catch (error) {
        a = await problem(c, error);
      }
      // In memory there is nothing to wait for.
      if (!volatile) await durable(c);
      // A rollback while this request ran (another request's write failed) may have undone its
      // changes: it does not answer success, even if its own flush found nothing left to write.
      if (health.epoch !== epoch) throw health.refusal();
      return a;
    } finally {
      health.leave(epoch);
    }
  };

  /**
   * Reads the body when something checks it before the handler does: the text checks of a JSON or
   * form body (charset, UTF-8, NUL, byte-order mark, depth: src/http/middleware/well-formed-text.ts),
   * or the media-type gate of a body sent without a Content-Type. Any other body is left to the
   * handler (an upload, an import).
   */
  const readBody = async (c: OperationContext, op: CompiledOperation): Promise<Uint8Array | undefined> => {
    const contentType = c.facts.header('content-type') ?? '';
    const kind = textKind(contentType);
    if (kind === undefined) {
      return contentType === '' && op.validation.body.needsBytes ? c.facts.bytes() : undefined;
    }
    refuseOtherCharsets(contentType);
    const bytes = await c.facts.bytes();
    const text = checkedText(kind, bytes);
    c.facts.textRead = text;
    (c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve(text);
    return bytes;
  };

  /**
   * Holds the answer of a request that may have written until the write is durable. A flush that
   * fails rolls back every change not durable and rejects with StorageUnavailableError (answered
   * `storage_unavailable`, with Retry-After; webhooks leave only once durable). A flush that
   * failed for other partners (written in the same group commit) leaves this request's write
   * standing; one that failed for this request's partner answers 503 `write_failed`: its changes
   * were rolled back.
   */
  const durable = async (c: OperationContext): Promise<void> => {
    try {
      await flushFor(deps.persistence, c.get('partner')?.id);
    } catch (error) {
      if (!(error instanceof WriteFailedError)) throw error;
      deps.log.error('a write was refused by the database and rolled back', error);
      throw new ApiError(
        'write_failed',
        'The database refused to save this change; it was rolled back and nothing of this request was applied. Retry; if it fails again, the data sent cannot be stored.',
      );
    }
  };

  return { run, problem };
}

/** Route middleware (`middleware:` of a definition), then `last`; as Hono's compose runs them. */
async function withMiddleware(
  c: OperationContext,
  op: CompiledOperation,
  index: number,
  last: () => Promise<Answer>,
): Promise<Answer> {
  const middleware = op.middleware[index];
  if (!middleware) return last();
  let inner: Answer | undefined;
  const returned = await middleware(c as never, async () => {
    inner = await withMiddleware(c, op, index + 1, last);
  });
  if (returned !== undefined) return toAnswer(returned);
  if (inner === undefined) throw new Error('a route middleware neither answered nor called next()');
  return inner;
}

function toAnswer(result: unknown): Answer | Promise<Answer> {
  if (isAnswer(result)) return result;
  if (result instanceof Response) return fromResponse(result);
  if (result instanceof Promise) return result.then(toAnswer);
  throw new Error('the operation answered neither through its context nor with a Response');
}

/** What an entry writes when even the problem answer failed (never expected; never a crash). */
export function lastResort(requestId: string | undefined): Answer {
  const headers = requestId ? ['Request-Id', requestId] : [];
  headers.push('content-type', 'application/problem+json');
  return new Answer(500, headers, LAST_RESORT, true);
}
