import type { Server } from 'node:http';

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

/** Advertises `advertisedMs` and closes idle connections `KEEP_ALIVE_GRACE_MS` later. */
export function keepIdleConnectionsPastTheirHint(
  server: Server,
  advertisedMs = DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
): void {
  server.keepAliveTimeout = advertisedMs;
  const buffered = server as Server & KeepAliveBuffered;
  if (typeof buffered.keepAliveTimeoutBuffer === 'number') {
    buffered.keepAliveTimeoutBuffer = KEEP_ALIVE_GRACE_MS;
    return;
  }
  // Older Node: when an answer is finished, node:http sets the idle connection's timeout to
  // `keepAliveTimeout` (Node 20.20: plus 1 s) in its own 'finish' listener, added before the
  // request is handed out; this one runs after it and lengthens that timeout (node:http clears it
  // when the next request arrives). A connection closing after the answer, or busy, is left alone.
  server.on('request', (req, res) => {
    res.once('finish', () => {
      const socket = req.socket;
      if (!socket.destroyed && (socket.timeout ?? 0) >= advertisedMs)
        socket.setTimeout(advertisedMs + KEEP_ALIVE_GRACE_MS);
    });
  });
}
