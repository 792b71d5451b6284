import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Context } from 'hono';
import type { AppEnv } from '../env.js';

/**
 * The wire side of API-side faults: what a client sees when a connection is reset, never
 * answered or cut mid-body. Under the Node adapter this acts on the request's socket; whatever the
 * adapter writes afterwards goes to a destroyed socket and is dropped. In-process (`app.request`,
 * no socket) the same faults end in a response whose body fails to read, as a cut connection does.
 */

/**
 * Shared mode: on the answer to a forwarded request, the wire fault the instance that received
 * the client's connection must act out (`reset`, `close`, `timeout=<ms>`, `truncate`); the owner
 * acting on the forwarding connection would only show the client a 503.
 */
export const FAULT_RELAY_HEADER = 'x-credit-sandbox-fault';
/** Set by `cluster/forward.ts` on a request one instance forwards to another. */
export const FORWARDED_BY_HEADER = 'x-credit-sandbox-forwarded-by';

/** Waits real time (the wire faults are about the client's own timeouts), ending early on `signal`. */
export type Wait = (ms: number, signal?: AbortSignal) => Promise<void>;

export const realWait: Wait = (ms, signal) =>
  new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/** Aborts when the client gives up: its connection closes (in-process: its request is aborted). */
export function clientGone(socket: Socket | undefined, requestSignal: AbortSignal): AbortSignal | undefined {
  if (!socket) return requestSignal;
  const controller = new AbortController();
  if (socket.destroyed) controller.abort();
  else socket.once('close', () => controller.abort());
  return controller.signal;
}

/**
 * Acts out a wire fault relayed by the owning instance (shared mode) on this instance's client
 * connection; undefined when the answer carries none.
 */
export async function actRelayedFault(
  c: Context<AppEnv>,
  answer: Response,
  wait: Wait = realWait,
): Promise<Response | undefined> {
  const relayed = answer.headers.get(FAULT_RELAY_HEADER);
  if (relayed === null) return undefined;
  const socket = socketOf(c.env);
  if (relayed === 'truncate') {
    const headers = new Headers(answer.headers);
    headers.delete(FAULT_RELAY_HEADER);
    c.res = new Response(answer.body, { status: answer.status, headers });
    return (await answerTruncated(c, socket)).response;
  }
  const timeout = /^timeout=(\d+)$/.exec(relayed);
  if (timeout) await wait(Number(timeout[1]), clientGone(socket, c.req.raw.signal));
  return cutConnection(socket, relayed === 'reset');
}

/** The request's socket under the Node server (its bindings carry it); undefined in-process. */
export function socketOf(env: unknown): Socket | undefined {
  const incoming = (env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming?.socket ?? undefined;
}

/** Ends the exchange without an answer: a TCP reset (`reset`) or a plain close. */
export function cutConnection(socket: Socket | undefined, reset: boolean): Response {
  if (socket) {
    if (reset && typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
    else socket.destroy();
    return new Response(null, { status: 502 });
  }
  return new Response(failingBody(new Uint8Array(), reset ? 'connection reset' : 'connection closed'), {
    status: 502,
  });
}

/**
 * Sends the app's answer with its status, its headers and its full `Content-Length`, but only the
 * first half of the body, then closes the connection. Answers what went out (for the request log)
 * and the response to hand back to the adapter.
 */
export async function answerTruncated(
  c: Context<AppEnv>,
  socket: Socket | undefined,
): Promise<{ sent: { status: number; text: string }; response: Response }> {
  const res = c.res;
  const body = Buffer.from(await res.text());
  const half = body.subarray(0, Math.floor(body.length / 2));
  const sent = { status: res.status, text: half.toString('utf8') };
  if (!socket) {
    const headers = new Headers(res.headers);
    headers.set('content-length', String(body.length));
    return {
      sent,
      response: new Response(failingBody(half, 'body truncated'), { status: res.status, headers }),
    };
  }
  const outgoing = (c.env as { outgoing?: ServerResponse }).outgoing;
  const pairs: string[] = [];
  res.headers.forEach((value, name) => {
    pairs.push(name, value);
  });
  await truncatedBytes(socket, outgoing, res.status, pairs, body);
  return { sent, response: new Response(null, { status: res.status }) };
}

/**
 * Writes an answer's status line, its headers (with those already set on Node's response) and its
 * full `Content-Length`, then only the first half of `body`, and closes the connection.
 */
export async function truncatedBytes(
  socket: Socket,
  outgoing: ServerResponse | undefined,
  status: number,
  pairs: readonly string[],
  body: Buffer,
): Promise<void> {
  const half = body.subarray(0, Math.floor(body.length / 2));
  const headers = new Map<string, string>();
  for (const [name, value] of Object.entries(outgoing?.getHeaders() ?? {})) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : String(value));
  }
  for (let i = 0; i < pairs.length; i += 2)
    headers.set((pairs[i] as string).toLowerCase(), pairs[i + 1] as string);
  headers.set('content-length', String(body.length));
  headers.set('connection', 'close');
  headers.delete('transfer-encoding');
  let head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n`;
  for (const [name, value] of headers) head += `${name}: ${value}\r\n`;
  const bytes = Buffer.concat([Buffer.from(`${head}\r\n`, 'latin1'), half]);
  // Waits until the bytes are handed to the kernel: the server's own writes must find the socket
  // already destroyed, or they would follow the truncated answer on the wire.
  await new Promise<void>((resolve) => socket.write(bytes, () => resolve()));
  socket.destroy();
}

/** A body that yields `bytes` and then fails, as reading a cut connection does. */
function failingBody(bytes: Uint8Array, why: string): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      if (bytes.length > 0) controller.enqueue(bytes);
      controller.error(new TypeError(`terminated: ${why} by a sandbox fault rule`));
    },
  });
}
