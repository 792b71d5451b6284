import type { ApiError } from '../../domain/errors.js';
import { problemBody } from '../problem.js';
import { type Answer, answer } from './answer.js';

/**
 * An ApiError as application/problem+json with its own status: what a fault rule answers (it names
 * its status, spec table or not). Anything thrown is answered by src/http/error-answer.ts instead.
 * `instance` is the request path with the request id as its fragment (`/v3/loans/ln_…#req_…`).
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
