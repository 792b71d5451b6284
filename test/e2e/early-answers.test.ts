import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_BODY_BYTES } from '../../src/app.js';
import type { RunningServer } from '../../src/server.js';
import { runBadInputSuite, runHostileProperty } from '../support/bad-input.js';
import { badInputTargetOver } from '../support/bad-input-target.js';
import { type OneConnection, oneConnection } from '../support/one-connection.js';
import { startQuietServer } from '../support/test-server.js';

// Answers sent before a request's body was read (a 401, a refused size), over real sockets on
// 127.0.0.1: what the connection does afterwards lives in node:http, below the app.
let server: RunningServer | undefined;
let client: OneConnection | undefined;
const sockets: Socket[] = [];

afterEach(async () => {
  vi.useRealTimers();
  for (const socket of sockets.splice(0)) socket.destroy();
  await client?.close();
  client = undefined;
  await server?.close();
  server = undefined;
});

async function start(): Promise<string> {
  server = await startQuietServer();
  return server.url;
}

interface Answer {
  status: number;
  head: string;
  body: string;
}

/** A raw connection (half-open allowed, as a client still sending its body) reading answers in order. */
function rawConnection(url: string) {
  const socket = connect({ port: Number(new URL(url).port), host: '127.0.0.1', allowHalfOpen: true });
  sockets.push(socket);
  let buffer = Buffer.alloc(0);
  let wake: (() => void) | undefined;
  let error: Error | undefined;
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    wake?.();
  });
  socket.on('error', (e) => {
    error = e;
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.once('close', () => wake?.());
  socket.once('end', () => wake?.());
  const next = async (): Promise<Answer> => {
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end >= 0) {
        const head = buffer.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffer.length >= end + 4 + length) {
          const body = buffer.subarray(end + 4, end + 4 + length).toString('utf8');
          buffer = buffer.subarray(end + 4 + length);
          return { status: Number(head.split(' ')[1]), head, body };
        }
      }
      if (socket.destroyed || socket.readableEnded) {
        throw new Error(
          `the server closed the connection before answering${error ? ` (${error.message})` : ''}`,
        );
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  };
  const write = (data: string) =>
    new Promise<void>((resolve, reject) => socket.write(data, (e) => (e ? reject(e) : resolve())));
  return { socket, next, write, closed, error: () => error };
}

const post = (length: number, first: string) =>
  `POST /v3/customers HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n${first}`;

/** Lets the server's side of a socket event run (its answer's finish and close), without a timer. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('answers sent before the body was read (real sockets on 127.0.0.1)', () => {
  it('keeps a connection it answered kept-alive, however late the rest of the unread body comes', async () => {
    const url = await start();
    // The server runs in this process: its timers move with this clock, not the wall's. A
    // clean-up that gave up on the unread body after 500 ms destroyed the connection it had
    // just called kept-alive.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const connection = rawConnection(url);
    const length = 256 * 1024;
    await connection.write(post(length, 'x'.repeat(1024)));
    const refused = await connection.next();
    expect(refused.status, refused.body).toBe(401);
    expect(refused.head).not.toMatch(/\r\nconnection: close/i);
    await settle();
    vi.advanceTimersByTime(60_000);
    vi.useRealTimers();
    await connection.write('x'.repeat(length - 1024));
    await connection.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const health = await connection.next();
    expect(health.status).toBe(200);
    expect(connection.error()).toBeUndefined();
  });

  it('says Connection: close to a body over the limit still arriving, and reads the rest before closing', async () => {
    const url = await start();
    const connection = rawConnection(url);
    const length = MAX_BODY_BYTES + 1024 * 1024;
    await connection.write(post(length, 'x'.repeat(1024)));
    const refused = await connection.next();
    expect(JSON.parse(refused.body).code).toBe('body_too_large');
    expect(refused.head).toMatch(/\r\nconnection: close/i);
    // The client still sends its body, as clients do: the server reads it on instead of closing
    // under it, which would reset the connection (EPIPE or ECONNRESET here, a lost answer
    // elsewhere).
    await connection.write('x'.repeat(length - 1024));
    connection.socket.end();
    await connection.closed;
    expect(connection.error()).toBeUndefined();
  });

  it('passes the bad-input suite and the hostile property over one kept-alive connection', async () => {
    const url = await start();
    client = oneConnection(url);
    let sent = 0;
    const send = client.send;
    const target = await badInputTargetOver((path, init) => {
      sent++;
      return send(path, init);
    });
    await runBadInputSuite(target);
    await runHostileProperty(target, 100);
    // The connection was really reused, and a new one opened only where the server said close (a
    // body over the limit) or undici dropped its own (an answer while it was still sending).
    expect(sent).toBeGreaterThan(150);
    expect(client.opened()).toBeLessThan(sent / 4);
  });
});
