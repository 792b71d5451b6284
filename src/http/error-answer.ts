import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ApiError, ERROR_CATALOG, type ErrorCode } from '../domain/errors.js';
import { CodedError } from '../lib/coded-error.js';
import { StorageUnavailableError } from '../store/storage-health.js';
import type { AppDeps } from './deps.js';
import type { AppEnv } from './env.js';
import { problemBody, problemResponse } from './problem.js';
import { bodyTooLarge, storageUnavailable, unsupportedContentType } from './spec-status-table.js';

/**
 * The answer to anything a request threw: its problem, with the request id in `instance`. Never
 * throws: if even that fails (a logger that throws, an error object that cannot be read), a plain
 * 500 problem is answered, so the process always serves the next request.
 */
export function errorResponse(
  c: Context<AppEnv>,
  error: unknown,
  deps: AppDeps,
  maxBodyBytes: number,
): Response {
  try {
    return problemResponse(c, toApiError(error, deps, c, maxBodyBytes), deps.config.publicUrl);
  } catch (failure) {
    try {
      deps.log.error('answering an error failed', failure);
    } catch {
      // Nothing left to tell: the answer below still goes out.
    }
    const requestId = c.get('requestId');
    const instance = requestId ? `${c.req.path}#${requestId}` : c.req.path;
    const body = problemBody(unexpected(), deps.config.publicUrl, instance);
    return new Response(JSON.stringify(body), {
      status: 500,
      headers: { 'content-type': 'application/problem+json', ...(requestId && { 'request-id': requestId }) },
    });
  }
}

/** Maps anything thrown to a problem; unexpected errors are logged and answer 500. */
function toApiError(error: unknown, deps: AppDeps, c: Context<AppEnv>, maxBodyBytes: number): ApiError {
  const req = c.req;
  if (error instanceof ApiError) return error;
  // Logged once by the storage health when it began, not per request.
  if (error instanceof StorageUnavailableError) return storageUnavailable(req.method, req.path, error);
  if (error instanceof CodedError && error.code in ERROR_CATALOG) {
    return new ApiError(error.code as ErrorCode, error.message, { param: error.param });
  }
  if (error instanceof HTTPException) {
    if (error.status === 400 && /json/i.test(error.message)) {
      return new ApiError('malformed_json', 'The request body is not valid JSON.', { param: 'body' });
    }
    if (error.status === 400) return new ApiError('validation_failed', error.message, { param: 'body' });
    if (error.status === 413) return bodyTooLarge(req.method, req.path, maxBodyBytes);
    if (error.status === 415) return unsupportedContentType(req.method, req.path);
  }
  // The client went away mid-body (or was cut off by the request timeout): nobody reads the
  // answer, and it is not a failure of the sandbox worth logging.
  if ((error as { code?: unknown } | null)?.code === 'ECONNRESET') {
    return new ApiError('validation_failed', 'The connection closed before the whole request body arrived.', {
      param: 'body',
    });
  }
  deps.log.error('unexpected error while handling a request', error, { request_id: c.get('requestId') });
  return unexpected();
}

function unexpected(): ApiError {
  return new ApiError(
    'internal_error',
    'The sandbox failed unexpectedly; the error was logged. It is safe to retry.',
  );
}
