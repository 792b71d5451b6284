import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../../domain/errors.js';
import type { AppDeps } from '../deps.js';
import type { AppEnv } from '../env.js';
import { addResponseHeader } from '../node-fast-path.js';
import { sharedRateLimiter } from '../rate-limiter.js';

/** Per-partner rate limit with `RateLimit-*` headers on every response and 429 + `Retry-After`. */
export function rateLimit(deps: AppDeps): MiddlewareHandler<AppEnv> {
  const rate = deps.config.rateLimit;
  const limiter = rate > 0 ? sharedRateLimiter(deps, rate, deps.realNow) : undefined;
  // One bucket per partner in memory, not per partner ever seen.
  if (limiter) deps.store.onEvicted((partnerId) => limiter.forget(partnerId));
  return (c, next) => {
    const partner = c.get('partner');
    if (!limiter || !partner) return next();
    const decision = limiter.take(partner.id);
    if (!decision.allowed) {
      throw new ApiError(
        'rate_limited',
        `More than ${rate} requests per second for this partner. Retry after ${decision.retryAfterSeconds} s, or start the sandbox with a higher --rate-limit (0 turns it off).`,
        {
          headers: {
            'RateLimit-Limit': String(decision.limit),
            'RateLimit-Remaining': String(decision.remaining),
            'RateLimit-Reset': String(decision.resetSeconds),
            'Retry-After': String(decision.retryAfterSeconds),
          },
        },
      );
    }
    // Set before the handler runs so they join whatever response it ends with, errors included;
    // one by one, not as a record: this runs on every request.
    addResponseHeader(c, 'RateLimit-Limit', String(decision.limit));
    addResponseHeader(c, 'RateLimit-Remaining', String(decision.remaining));
    addResponseHeader(c, 'RateLimit-Reset', String(decision.resetSeconds));
    return next();
  };
}
