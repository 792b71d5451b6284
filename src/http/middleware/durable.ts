import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../../domain/errors.js';
import { WriteFailedError } from '../../store/persistence.js';
import type { AppDeps } from '../deps.js';
import type { AppEnv } from '../env.js';

/**
 * Holds the response of every request that may have written until the write is durable, and
 * answers only what happened:
 * - while the store cannot write (`persistence.health`), the request is refused before it runs
 *   (`storage_unavailable`, with Retry-After), except a token request, which writes nothing;
 * - a flush that fails rolls back every change that was not durable and rejects with
 *   StorageUnavailableError (answered `storage_unavailable` by the app's error handler);
 * - a rollback while this request ran (another request's write failed) may have undone this
 *   one's changes: it answers `storage_unavailable` too, even if its own flush found nothing left
 *   to write;
 * - a flush that failed for other partners (written in the same group commit) leaves this
 *   request's write standing; one that failed for this request's partner answers 503
 *   `write_failed`: its changes were rolled back.
 */
export function durable(deps: AppDeps): MiddlewareHandler<AppEnv> {
  const health = deps.persistence.health;
  return async (c, next) => {
    if (!health.writable) {
      // A token is stateless: clients (and the dashboard's sign-in) still get one, to read with.
      if (c.req.path === TOKEN_PATH) return next();
      throw health.refusal();
    }
    const epoch = health.enter();
    try {
      await next();
      await flush(deps, c.get('partner')?.id);
      if (health.epoch !== epoch) throw health.refusal();
    } finally {
      health.leave(epoch);
    }
  };
}

const TOKEN_PATH = '/v3/auth/token';

async function flush(deps: AppDeps, partnerId: string | undefined): Promise<void> {
  try {
    await deps.persistence.flush();
  } catch (error) {
    if (!(error instanceof WriteFailedError)) throw error;
    if (partnerId !== undefined && !error.partnerIds.includes(partnerId)) return;
    deps.log.error('a write was refused by the database and rolled back', error);
    throw new ApiError(
      'write_failed',
      'The database refused to save this change; it was rolled back and nothing of this request was applied. Retry; if it fails again, the data sent cannot be stored.',
    );
  }
}
