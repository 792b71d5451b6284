import { HTTPException } from 'hono/http-exception';
import { ApiError, ERROR_CATALOG, type ErrorCode } from '../../domain/errors.js';
import { CodedError } from '../../lib/coded-error.js';
import type { Logger } from '../deps.js';
import { problemBody } from '../problem.js';
import { bodyTooLarge, unsupportedContentType } from '../spec-status-table.js';
import { type Answer, answer } from './answer.js';
import { MAX_BODY_BYTES } from './request-facts.js';

/** Maps anything thrown to a problem; unexpected errors are logged and answer 500. */
export function toApiError(error: unknown, log: Logger, req: { method: string; path: string }): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof CodedError && error.code in ERROR_CATALOG) {
    return new ApiError(error.code as ErrorCode, error.message, { param: error.param });
  }
  if (error instanceof HTTPException) {
    if (error.status === 400 && /json/i.test(error.message)) {
      return new ApiError('malformed_json', 'The request body is not valid JSON.', { param: 'body' });
    }
    if (error.status === 400) return new ApiError('validation_failed', error.message, { param: 'body' });
    if (error.status === 413) return bodyTooLarge(req.method, req.path, MAX_BODY_BYTES);
    if (error.status === 415) return unsupportedContentType(req.method, req.path);
  }
  // The client went away mid-body (or was cut off by the request timeout): nobody reads the
  // answer, and it is not a failure of the sandbox worth logging.
  if ((error as { code?: unknown } | null)?.code === 'ECONNRESET') {
    return new ApiError('validation_failed', 'The connection closed before the whole request body arrived.', {
      param: 'body',
    });
  }
  log.error('unexpected error while handling a request', error);
  return new ApiError(
    'internal_error',
    'The sandbox failed unexpectedly; the error was logged. It is safe to retry.',
  );
}

/**
 * An ApiError as application/problem+json. `instance` is the request path with the request id as
 * its fragment (`/v3/loans/ln_…#req_…`), the id to look up in the request inspector.
 */
export function problemAnswer(error: ApiError, publicUrl: string, path: string, requestId: string): Answer {
  const headers = ['content-type', 'application/problem+json'];
  for (const [name, value] of Object.entries(error.headers ?? {})) headers.push(name, value);
  const instance = requestId ? `${path}#${requestId}` : path;
  return answer(error.status, headers, JSON.stringify(problemBody(error, publicUrl, instance)));
}

/** The last resort when even a problem could not be made: a bare 500 the client can read. */
export const LAST_RESORT = JSON.stringify({
  type: 'about:blank',
  title: 'Internal Server Error',
  status: 500,
  detail: 'The sandbox failed unexpectedly. It is safe to retry.',
  code: 'internal_error',
});
