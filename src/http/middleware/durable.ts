import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../../domain/errors.js';
import { WriteFailedError } from '../../store/persistence.js';
import type { AppDeps } from '../deps.js';
import type { AppEnv } from '../env.js';

/**
 * Holds the response of every request that may have written until the write is durable. A flush
 * that failed for other partners (written in the same group commit) leaves this request's write
 * standing; one that failed for this request's partner answers 503 `write_failed`: its changes
 * were rolled back.
 */
export function durable(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return;
    try {
      await deps.persistence.flush();
    } catch (error) {
      if (!(error instanceof WriteFailedError)) throw error;
      const partnerId = c.get('partner')?.id;
      if (partnerId !== undefined && !error.partnerIds.includes(partnerId)) return;
      deps.log.error('a write was refused by the database and rolled back', error);
      throw new ApiError(
        'write_failed',
        'The database refused to save this change; it was rolled back and nothing of this request was applied. Retry; if it fails again, the data sent cannot be stored.',
      );
    }
  };
}
