import type { Context, TypedResponse } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { JSONParsed } from 'hono/utils/types';
import type { JsonText } from '../lib/view-text.js';
import type { AppEnv } from './env.js';
import { OperationContext } from './pipeline/operation-context.js';

/** `c.json(view, status)`'s return type for a view type T: what the route's response schema checks. */
export type JsonAnswer<T extends object, U extends ContentfulStatusCode> = Response &
  TypedResponse<JSONParsed<T>, U, 'json'>;

/**
 * Answers JSON text already serialised (a view kept per row version, src/lib/view-text.ts): the
 * same bytes and `Content-Type` as `c.json(view, status)`, typed as that call would be, so the
 * route's response schema still checks the handler.
 */
export function sendJson<T extends object, U extends ContentfulStatusCode>(
  c: Context<AppEnv>,
  text: JsonText<T>,
  status: U,
): JsonAnswer<T, U> {
  if (c instanceof OperationContext) return c.jsonText(text, status) as unknown as JsonAnswer<T, U>;
  return c.body(text, status, { 'content-type': 'application/json' }) as unknown as JsonAnswer<T, U>;
}
