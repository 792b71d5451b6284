import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Most of an unread body discarded after an early answer before the connection is cut anyway. */
export const MAX_LINGER_BYTES = 64 * 1024 * 1024;

/**
 * Keeps the connection honest when the sandbox answers a request before reading all of its body
 * (a refusal by authentication, the rate limit, the URL checks or the body-size limit, a 404, a
 * 405): clients that keep connections alive (undici, Node's fetch, any pool) send their next
 * request on a connection the answer called kept-alive, so the server must then really keep it.
 * Replaces @hono/node-server's own clean-up (`autoCleanupIncoming: false`), which destroyed the
 * socket 500 ms after such an answer unless the body had ended by then, and a paused reader of
 * the body (the app's web stream over it) kept it from ending: the next request on the
 * connection then failed with "other side closed", and a client still writing a large body with
 * EPIPE.
 *
 * - A body of at most `maxKeptBody` declared bytes: the answer stays kept-alive and the rest of
 *   the body is read and dropped after it (the request timeout bounds a client that stalls).
 * - A larger body, or one of unknown length (chunked), still arriving: the answer says
 *   `Connection: close`, and the connection is closed only once the client has sent the rest,
 *   closed its side, or sent more than MAX_LINGER_BYTES. Closing at once, with the client still
 *   writing, would reset the connection and could lose the answer on its way.
 *
 * Requests without a body (every read) are left alone.
 */
export function honestConnections(maxKeptBody: number): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    if (!hasBody(req)) return;
    const declared = Number(req.headers['content-length'] ?? Number.NaN);
    const keepable = req.headers['transfer-encoding'] === undefined && declared <= maxKeptBody;
    if (!keepable) {
      const writeHead = res.writeHead as (...args: unknown[]) => ServerResponse;
      // Node has no event before the head is written, and the head is where closing is announced.
      res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
        if (!req.complete) {
          this.setHeader('connection', 'close');
          lingerBeforeClosing(req, req.socket);
        }
        return writeHead.apply(this, args);
      } as ServerResponse['writeHead'];
    }
    res.once('finish', () => discardRest(req));
  };
}

/** Whether a request declares a body (a length above 0, or chunked). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

const discarding = new WeakSet<IncomingMessage>();

/** Lets the rest of an unread body flow to nowhere, whoever paused it (once per request). */
function discardRest(req: IncomingMessage): void {
  if (req.readableEnded || req.destroyed || discarding.has(req)) return;
  discarding.add(req);
  // The app's reader of the body (a web stream over it) pauses it while nobody reads that stream.
  req.removeAllListeners('data');
  req.resume();
}

/**
 * Node closes the socket of a `Connection: close` answer as soon as the answer is written (its
 * `destroySoon`); this half-closes it instead and reads on until the client is done (a lingering
 * close, RFC 9112 section 9.6).
 */
function lingerBeforeClosing(req: IncomingMessage, socket: Socket): void {
  let lingering = false;
  socket.destroySoon = function (this: Socket) {
    if (lingering) return;
    lingering = true;
    this.end();
    if (req.readableEnded || req.destroyed) {
      this.destroy();
      return;
    }
    const close = () => this.destroy();
    req.once('end', close);
    req.once('error', close);
    this.once('end', close);
    discardRest(req);
    let discarded = 0;
    req.on('data', (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > MAX_LINGER_BYTES) close();
    });
  };
}
