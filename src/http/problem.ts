import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ApiError, type ErrorCode } from '../domain/errors.js';
import type { AppEnv } from './env.js';
import { fitToSpecTable } from './spec-status-table.js';

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  code: ErrorCode;
  param?: string;
  errors?: { param: string; detail: string; code?: string }[];
}

/** The stable URI of a problem type: a page this sandbox serves that explains the code. */
export function problemTypeUrl(publicUrl: string, code: ErrorCode): string {
  return `${publicUrl.replace(/\/$/, '')}/problems/${code}`;
}

export function problemBody(error: ApiError, publicUrl: string, instance: string): ProblemBody {
  const body: ProblemBody = {
    type: problemTypeUrl(publicUrl, error.code),
    title: error.title,
    status: error.status,
    detail: error.message,
    instance,
    code: error.code,
  };
  if (error.param !== undefined) body.param = error.param;
  if (error.errors !== undefined) body.errors = error.errors;
  return body;
}

/**
 * Renders an ApiError as application/problem+json. `instance` is the request path with the
 * request id as its fragment (`/v3/loans/ln_…#req_…`), the id to look up in the request inspector.
 * On the endpoints of the spec's status table the status is one of the endpoint's row
 * (`fitToSpecTable`), whoever renders the problem; `asIs` keeps the error's own status (an API
 * fault rule answers exactly the status it names).
 */
export function problemResponse(
  c: Context<AppEnv>,
  refusal: ApiError,
  publicUrl: string,
  options: { asIs?: boolean } = {},
): Response {
  const error = options.asIs ? refusal : fitToSpecTable(c.req.method, c.req.path, refusal);
  // c.body keeps headers set earlier with c.header (RateLimit-*), unlike a bare Response.
  c.header('content-type', 'application/problem+json');
  for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
  const text = JSON.stringify(problemBody(error, publicUrl, problemInstance(c)));
  // The request inspector files the answer under this code without parsing it back.
  c.set('problemCode', error.code);
  return c.body(text, error.status as ContentfulStatusCode);
}

export { ApiError };

function problemInstance(c: Context<AppEnv>): string {
  const requestId = c.get('requestId');
  return requestId ? `${c.req.path}#${requestId}` : c.req.path;
}
