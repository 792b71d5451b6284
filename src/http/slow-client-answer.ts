import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError } from '../domain/errors.js';
import { problemBody } from './problem.js';
import { fitToSpecTable } from './spec-status-table.js';

/** What Node itself answers to the client errors this module does not change (its own bytes). */
const NODE_ANSWERS: Record<string, string> = {
  HPE_HEADER_OVERFLOW: 'HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 'HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\n\r\n',
};
const NODE_BAD_REQUEST = 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n';

const REASONS: Record<number, string> = { 400: 'Bad Request', 422: 'Unprocessable Entity' };

/**
 * Answers a request that did not arrive in time (`--headers-timeout`, `--request-timeout`) as the
 * API answers everything else: `400 request_timeout` as application/problem+json — 422 where the
 * endpoint's row of the spec's status table has no 400 — instead of Node's bare `408` (no status
 * of this API). The cut-off itself is Node's (slowClientServerOptions); only the answer changes.
 * Other client errors (a request Node cannot parse) keep Node's own answers. Returns `receiving`,
 * which the request handler calls for each request with a body, so the answer knows its endpoint.
 */
export function answerSlowClientsAsProblems(
  server: Server,
  publicUrl: () => string,
): { receiving(req: IncomingMessage, res: ServerResponse): void } {
  const inFlight = new WeakMap<Socket, { method: string; path: string; res: ServerResponse }>();
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    const request = inFlight.get(socket);
    // Node's own check (its default handler reads the same field): nothing may be written once
    // the answer in flight on this connection has started.
    const answering = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (socket.writable && !answering?.headersSent) {
      socket.write(
        error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? timeoutAnswer(request, publicUrl())
          : (NODE_ANSWERS[error.code ?? ''] ?? NODE_BAD_REQUEST),
      );
    }
    socket.destroy(error);
  });
  return {
    receiving(req, res) {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      inFlight.set(req.socket, { method: req.method ?? 'GET', path, res });
      res.once('close', () => {
        if (inFlight.get(req.socket)?.res === res) inFlight.delete(req.socket);
      });
    },
  };
}

function timeoutAnswer(request: { method: string; path: string } | undefined, publicUrl: string): string {
  const refusal = new ApiError(
    'request_timeout',
    request
      ? 'The request body did not arrive in time (or was shorter than its Content-Length); the connection is closed. Send the whole body at once, with its real length.'
      : 'The request headers did not arrive in time; the connection is closed. Send the whole request at once.',
  );
  const error = request ? fitToSpecTable(request.method, request.path, refusal) : refusal;
  const body = JSON.stringify(problemBody(error, publicUrl, request?.path ?? '/'));
  return [
    `HTTP/1.1 ${error.status} ${REASONS[error.status] ?? 'Bad Request'}`,
    'Content-Type: application/problem+json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}
