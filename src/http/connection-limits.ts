import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError } from '../domain/errors.js';
import { problemBody } from './problem.js';

/** Defaults of the server's slow-client limits (documented in docs/server.md). */
export const DEFAULT_HEADERS_TIMEOUT_MS = 5_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_CONNECTIONS_PER_CLIENT = 32;

export interface SlowClientLimits {
  /** A request whose headers are not complete within this many ms is answered 408 and closed. */
  headersTimeoutMs: number;
  /** A request not received completely (headers and body) within this many ms is answered 408 and closed. */
  requestTimeoutMs: number;
}

/**
 * The node:http server options that cut slow clients off. Node checks its connections for these
 * timeouts only every `connectionsCheckingInterval` (30 s by default), far too coarse for limits of
 * a few seconds: check four times per shortest limit (at most once a second, at least every 50 ms).
 */
export function slowClientServerOptions(limits: SlowClientLimits) {
  const shortest = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(shortest / 4))),
  };
}

/** What the per-client cap tells the request handler. */
export interface ConnectionCap {
  /** True for a socket refused by the cap: a request that still arrives on it must not run. */
  refused(socket: Socket | undefined): boolean;
}

/**
 * Caps the open connections of each client address (hosted mode): one client cannot hold every
 * socket of a shared sandbox. A connection over the cap is answered `429 too_many_connections`
 * (problem+json) and closed; a request already sent on it is never run (see `refused`).
 */
export function limitConnectionsPerClient(
  server: Server,
  max: number,
  publicUrl: () => string,
): ConnectionCap {
  const open = new Map<string, number>();
  const refusedSockets = new WeakSet<Socket>();
  server.prependListener('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const count = open.get(address) ?? 0;
    if (count >= max) {
      refusedSockets.add(socket);
      refuse(socket, max, publicUrl());
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
  return { refused: (socket) => socket !== undefined && refusedSockets.has(socket) };
}

function refuse(socket: Socket, max: number, publicUrl: string): void {
  const error = new ApiError(
    'too_many_connections',
    `This address already holds ${max} open connections to the sandbox, the most one client may hold. Reuse a connection (keep-alive) or close idle ones.`,
  );
  const body = JSON.stringify(problemBody(error, publicUrl, '/'));
  socket.on('error', () => {});
  socket.write(
    [
      'HTTP/1.1 429 Too Many Requests',
      'Content-Type: application/problem+json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Retry-After: 1',
      'Connection: close',
      '',
      body,
    ].join('\r\n'),
    () => socket.destroy(),
  );
}
