import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../domain/errors.js';
import type { AppEnv } from '../http/env.js';
import { requestHeader } from '../http/node-fast-path.js';
import type { Cluster } from './cluster.js';
import { FORWARDED_HEADER, type Forwarder, OwnerUnreachableError } from './forward.js';
import type { RequestPartners } from './request-partner.js';

/** How long a request waits for a dead owner's lease to expire before answering 503. */
const FAILOVER_WAIT_MS = 20_000;
const RETRY_EVERY_MS = 200;

/**
 * The one door of shared mode into the HTTP app: a request for a partner this instance holds goes
 * straight on (no await, no database); one for a partner nobody holds is taken over here first;
 * one for a partner another live instance holds is forwarded there and its answer returned. When
 * the owner is down, the request waits until its lease expires and the partner is taken over.
 */
export function clusterMiddleware(
  cluster: Cluster,
  partners: RequestPartners,
  forwarder: Forwarder,
): MiddlewareHandler<AppEnv> {
  const route = async (
    c: Parameters<MiddlewareHandler<AppEnv>>[0],
    next: () => Promise<void>,
    id: string,
  ) => {
    const deadline = performance.now() + FAILOVER_WAIT_MS;
    for (;;) {
      const view = await cluster.claim(id);
      if (view.mine) return next();
      if (requestHeader(c, FORWARDED_HEADER)) {
        // Ownership moved while this request travelled: one hop only, never a loop.
        throw unavailable('ownership of this partner is moving between instances');
      }
      try {
        return await forwarder.forward(c.req.raw, view.ownerUrl);
      } catch (error) {
        if (!(error instanceof OwnerUnreachableError)) {
          throw unavailable(`the owning instance failed while answering (${(error as Error).message})`);
        }
        if (performance.now() > deadline) throw unavailable(error.message);
        await delay(RETRY_EVERY_MS);
      }
    }
  };

  // Not async: the common case (a partner held here) must not cost a promise.
  return (c, next) => {
    const found = partners.of({ path: c.req.path, authorization: requestHeader(c, 'authorization') });
    if (found === undefined) return next();
    if (typeof found === 'string') return cluster.owns(found) ? next() : route(c, next, found);
    return found.then((id) => (id === undefined || cluster.owns(id) ? next() : route(c, next, id)));
  };
}

function unavailable(why: string): ApiError {
  return new ApiError(
    'instance_unavailable',
    `This partner's sandbox instance is not reachable right now: ${why}. Retry in a second; send a POST again with the same Idempotency-Key, so it is applied at most once.`,
    { headers: { 'Retry-After': '1' } },
  );
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
