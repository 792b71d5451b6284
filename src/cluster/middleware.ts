import type { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { ApiError } from '../domain/errors.js';
import type { AppEnv } from '../http/env.js';
import { actRelayedFault } from '../http/middleware/fault-wire.js';
import type { Cluster } from './cluster.js';
import { signInClientId } from './dashboard-partner.js';
import {
  FORWARDED_HEADER,
  type Forwarder,
  forwardedBody,
  NOT_OWNER_HEADER,
  OwnerUnreachableError,
} from './forward.js';
import { DEFAULT_FORWARD_WAIT_MS } from './forward-wait.js';
import type { RequestPartners } from './request-partner.js';

export { DEFAULT_FORWARD_WAIT_MS, FORWARD_WAIT_MS_BOUNDS } from './forward-wait.js';

const RETRY_EVERY_MS = 200;
const OWNER_CACHE_LIMIT = 10_000;
const SIGN_IN_PATH = '/dashboard/sign-in';

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
  waitMs = DEFAULT_FORWARD_WAIT_MS,
): MiddlewareHandler<AppEnv> {
  // Where each partner was last forwarded: forwarding then costs no database query. An entry is
  // dropped when the owner refuses the connection or answers that it no longer owns the partner.
  const owners = new Map<string, string>();

  const route = async (
    c: Parameters<MiddlewareHandler<AppEnv>>[0],
    next: () => Promise<void>,
    id: string,
  ) => {
    const deadline = performance.now() + waitMs;
    // Read on the first forward only, and kept for a retry.
    let body: { bytes: Buffer | undefined } | undefined;
    for (;;) {
      let ownerUrl = owners.get(id);
      if (!ownerUrl) {
        const view = await cluster.claim(id);
        if (view.mine) return next();
        ownerUrl = view.ownerUrl;
        if (owners.size >= OWNER_CACHE_LIMIT) owners.clear();
        owners.set(id, ownerUrl);
      }
      if (requestHeader(c, FORWARDED_HEADER)) {
        // Ownership moved while this request travelled: one hop only, never a loop.
        throw unavailable('ownership of this partner is moving between instances', true);
      }
      try {
        body ??= { bytes: await forwardedBody(c.req) };
        const answer = await forwarder.forward(c.req.raw, ownerUrl, body.bytes);
        // A wire fault (reset, timeout, truncation) is acted out here, on the client's connection.
        if (!answer.headers.has(NOT_OWNER_HEADER)) return (await actRelayedFault(c, answer)) ?? answer;
        // The owner we remembered gave the partner up; it applied nothing: ask the database again.
        owners.delete(id);
      } catch (error) {
        owners.delete(id);
        const message = (error as Error).message;
        // An owner that died while answering may or may not have applied the request: sent again
        // only when that is safe (a read, or a write under an Idempotency-Key, which the next owner
        // answers from its cache if the first one committed it), as the problem would tell the
        // client to do; else the client decides.
        if (!(error instanceof OwnerUnreachableError) && !safeToRepeat(c)) {
          throw unavailable(`the owning instance failed while answering (${message})`);
        }
        if (performance.now() > deadline) throw unavailable(message);
        await delay(RETRY_EVERY_MS);
      }
      if (performance.now() > deadline) throw unavailable('ownership kept moving');
    }
  };

  // The database cannot be reached while a partner is looked up or taken over: storage_unavailable.
  const unreachable = (error: unknown): never => {
    throw cluster.storageError(error);
  };

  // Not async: the common case (a partner held here) must not cost a promise.
  return (c, next) => {
    const path = c.req.path;
    // Listening before the cluster has started (it registers this instance's URL): a partner's
    // request would find the default partner not created yet (401 for a good credential) and a load
    // balancer would send traffic. Until then: 503 with Retry-After, and /healthz says "starting".
    if (!cluster.ready) {
      if (path === '/healthz') return Promise.resolve(starting(c));
      if (path === '/v3' || path.startsWith('/v3/')) throw unavailable('it is still starting');
    }
    let found = partners.of({
      path,
      authorization: requestHeader(c, 'authorization'),
      cookie: requestHeader(c, 'cookie'),
    });
    // A dashboard sign-in goes where the credential it names lives.
    if (found === undefined && path === SIGN_IN_PATH && c.req.method === 'POST') {
      found = signInClientId(c.req.raw).then((clientId) => partners.ofClient(clientId));
    }
    if (found === undefined) return next();
    if (typeof found === 'string') {
      return cluster.serves(found) ? next() : route(c, next, found).catch(unreachable);
    }
    return found
      .then((id) => (id === undefined || cluster.serves(id) ? next() : route(c, next, id)))
      .catch(unreachable);
  };
}

/** One request header, from Node's request when the server passed it (no fetch Headers built). */
function requestHeader(c: Context<AppEnv>, name: string): string | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming?.headers) return c.req.header(name);
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** A request that may be sent to the next owner after the first died answering it. */
export function safeToRepeat(c: Context<AppEnv>): boolean {
  const method = c.req.method;
  if (method === 'GET' || method === 'HEAD') return true;
  return (requestHeader(c, 'idempotency-key') ?? '') !== '';
}

function starting(c: Context<AppEnv>): Response {
  c.header('Retry-After', '1');
  return c.json({ status: 'starting' }, 503);
}

function unavailable(why: string, notOwner = false): ApiError {
  const headers: Record<string, string> = { 'Retry-After': '1' };
  if (notOwner) headers[NOT_OWNER_HEADER] = 'true';
  return new ApiError(
    'instance_unavailable',
    `This partner's sandbox instance is not reachable right now: ${why}. Retry in a second; send a POST again with the same Idempotency-Key, so it is applied at most once.`,
    { headers },
  );
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
