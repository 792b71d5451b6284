import type { MiddlewareHandler } from 'hono';
import type { AppDeps } from '../deps.js';
import type { AppEnv } from '../env.js';

/** Holds the response of every request that may have written until the write is durable. */
export function durable(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') await deps.persistence.flush();
  };
}
