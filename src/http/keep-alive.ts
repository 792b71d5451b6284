import type { Server, ServerResponse } from 'node:http';

/** What the server advertises in `Keep-Alive: timeout=5`: Node's default, kept. */
export const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 5_000;

/**
 * How much longer than advertised an idle keep-alive connection really stays open. Closing a
 * connection exactly when advertised races the client: a client that reads the hint (fetch and
 * undici drop an idle connection 1–2 s before it, Node's http.Agent 1 s before) sends on it just
 * before that, but a server process that is not scheduled for a moment (a busy machine) wakes
 * with its idle timer due and the request unread, runs the timer first and closes the connection
 * under the request: `ECONNRESET`. Clients that ignore the hint (curl, Go, Python) keep idle
 * connections far longer. So the server keeps them a minute past the hint: as long as the common
 * 60 s idle timeout of load balancers, which those clients are built to meet. An idle connection
 * costs a socket and a few KiB; in hosted mode `--max-connections-per-client` bounds how many one
 * address holds, and a shutdown closes idle connections at once.
 */
export const KEEP_ALIVE_GRACE_MS = 60_000;

interface KeepAliveBuffered {
  /** Node ≥ 24.6: the grace, built in (idle close at `keepAliveTimeout` plus this). */
  keepAliveTimeoutBuffer?: number;
}

interface AdvertisedTimeout {
  /** node:http's copy of `server.keepAliveTimeout` on each answer, the one `Keep-Alive: timeout=` is written from. */
  _keepAliveTimeout?: number;
}

/**
 * Advertises `advertisedMs` and closes idle connections `KEEP_ALIVE_GRACE_MS` later. On Node
 * ≥ 24.6 that is the server's own `keepAliveTimeoutBuffer`, and nothing is left to do per request
 * (returns undefined). On older Node the server's idle timeout is set to the hint plus the grace
 * (Node 20 adds its own second), and the returned function, called on each answer before its
 * head is written, puts the hint back into what the answer advertises: one property write a
 * request, where a listener re-arming the socket's timer after each answer cost two timer moves.
 */
export function keepIdleConnectionsPastTheirHint(
  server: Server,
  advertisedMs = DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
): ((res: ServerResponse) => void) | undefined {
  const buffered = server as Server & KeepAliveBuffered;
  if (typeof buffered.keepAliveTimeoutBuffer === 'number') {
    server.keepAliveTimeout = advertisedMs;
    buffered.keepAliveTimeoutBuffer = KEEP_ALIVE_GRACE_MS;
    return undefined;
  }
  server.keepAliveTimeout = advertisedMs + KEEP_ALIVE_GRACE_MS;
  return (res) => {
    (res as ServerResponse & AdvertisedTimeout)._keepAliveTimeout = advertisedMs;
  };
}
