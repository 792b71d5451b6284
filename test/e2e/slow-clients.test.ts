import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import type { RunningServer, ServeOptions } from '../../src/server.js';
import { startQuietServer } from '../support/test-server.js';

// Real sockets on 127.0.0.1: the limits live in node:http, below the app.
let server: RunningServer | undefined;
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await server?.close();
  server = undefined;
});

async function start(options: Partial<ServeOptions>): Promise<{ host: string; port: number; url: string }> {
  server = await startQuietServer(options);
  const url = new URL(server.url);
  return { host: url.hostname, port: Number(url.port), url: server.url };
}

interface Outcome {
  /** Milliseconds from connecting until the server closed the connection. */
  closedAfterMs: number;
  received: string;
}

/** Opens a raw connection, sends `data`, and resolves when the server closes it. */
function rawClient(port: number, data: string): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let received = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(data));
    sockets.push(socket);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => resolve({ closedAfterMs: performance.now() - started, received }));
  });
}

/** A raw answer that is a problem document with this status and code, closing the connection. */
function expectProblem(received: string, status: number, code: string): void {
  expect(received.slice(0, received.indexOf('\r\n'))).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
  const head = received.slice(0, received.indexOf('\r\n\r\n')).toLowerCase();
  expect(head).toContain('content-type: application/problem+json');
  expect(head).toContain('connection: close');
  const body = JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
  expect(body).toMatchObject({ status, code, type: expect.stringContaining(`/problems/${code}`) });
}

async function accessToken(url: string): Promise<string> {
  const basic = Buffer.from(`${DEFAULT_CLIENT_ID}:${DEFAULT_CLIENT_SECRET}`).toString('base64');
  const res = await fetch(`${url}/v3/auth/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}` },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

async function timedGet(url: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${url}/healthz`);
  expect(res.status).toBe(200);
  await res.text();
  return performance.now() - started;
}

describe('slow clients are cut off (real sockets on 127.0.0.1)', () => {
  it('cuts off a body shorter than its Content-Length within the request timeout while other requests stay fast', async () => {
    const { port, url } = await start({ headersTimeoutMs: 400, requestTimeoutMs: 800 });
    const token = await accessToken(url);
    const slow = rawClient(
      port,
      `POST /v3/customers HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"cpf":`,
    );
    // While the slow client holds its connection, other requests are answered at once.
    const timings: number[] = [];
    for (let i = 0; i < 5; i++) {
      timings.push(await timedGet(url));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const outcome = await slow;
    // The spec's table has no 408: its 400, as a problem document.
    expectProblem(outcome.received, 400, 'request_timeout');
    // Node checks its connections every quarter of the shortest limit (here 100 ms).
    expect(outcome.closedAfterMs).toBeGreaterThanOrEqual(700);
    expect(outcome.closedAfterMs).toBeLessThan(800 + 600);
    // Well below the 800 ms the slow client is held (generous for a loaded machine).
    expect(Math.max(...timings)).toBeLessThan(400);
  });

  it('cuts off unfinished headers within the headers timeout', async () => {
    const { port } = await start({ headersTimeoutMs: 300, requestTimeoutMs: 5_000 });
    const outcome = await rawClient(port, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a');
    expectProblem(outcome.received, 400, 'request_timeout');
    expect(outcome.closedAfterMs).toBeGreaterThanOrEqual(250);
    expect(outcome.closedAfterMs).toBeLessThan(300 + 600);
  });

  it("answers a body that never finishes with a status of its endpoint's table, on every endpoint", async () => {
    const { port, url } = await start({ headersTimeoutMs: 200, requestTimeoutMs: 400 });
    const token = await accessToken(url);
    const customer = await fetch(`${url}/v3/customers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ cpf: '52998224725' }),
    });
    const { id } = (await customer.json()) as { id: string };
    const slowly = (method: string, path: string) =>
      rawClient(
        port,
        `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`,
      );
    const [simulation, biometrics, endpoint] = await Promise.all([
      slowly('POST', '/v3/credit-offers/co_x/simulations'),
      // Biometrics: its row has no 400, so the table's 422.
      slowly('POST', `/v3/customers/${id}/biometrics`),
      // Outside the table: 400 too (HTTP's 408 is no status of this API).
      slowly('POST', '/v3/webhooks/endpoints'),
    ]);
    expectProblem(simulation.received, 400, 'request_timeout');
    expectProblem(biometrics.received, 422, 'request_timeout');
    expectProblem(endpoint.received, 400, 'request_timeout');
    // The server is answering as before.
    expect(await timedGet(url)).toBeLessThan(1_000);
  });

  it("keeps Node's own answers to requests it cannot parse", async () => {
    const { port } = await start({});
    expect((await rawClient(port, 'NOT HTTP\r\n\r\n')).received).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    const huge = await rawClient(
      port,
      `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(huge.received).toMatch(/^HTTP\/1\.1 431 /);
  });

  it('does not cut off an idle keep-alive connection between two requests', async () => {
    const { url } = await start({ headersTimeoutMs: 200, requestTimeoutMs: 300 });
    expect(await accessToken(url)).toMatch(/^svc_at_/);
    // A keep-alive connection idle between requests is not a slow request either.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await timedGet(url)).toBeLessThan(400);
  });
});

describe('per-client connection cap in hosted mode', () => {
  it('answers 429 too_many_connections over the cap and accepts again once one closes', async () => {
    const { port } = await start({ hosted: true, maxConnectionsPerClient: 2 });
    const hold = () =>
      new Promise<Socket>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => resolve(socket));
        sockets.push(socket);
      });
    const first = await hold();
    await hold();
    const refused = await rawClient(port, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect(refused.received).toMatch(/^HTTP\/1\.1 429/);
    const body = JSON.parse(refused.received.slice(refused.received.indexOf('\r\n\r\n') + 4)) as {
      code: string;
      status: number;
    };
    expect(body).toMatchObject({ code: 'too_many_connections', status: 429 });

    first.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const accepted = await rawClient(
      port,
      'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
    );
    expect(accepted.received).toMatch(/^HTTP\/1\.1 200/);
  });

  it('has no cap without --hosted', async () => {
    const { port } = await start({ maxConnectionsPerClient: 1 });
    const held = connect(port, '127.0.0.1');
    sockets.push(held);
    await new Promise((resolve) => held.once('connect', resolve));
    const second = await rawClient(
      port,
      'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
    );
    expect(second.received).toMatch(/^HTTP\/1\.1 200/);
  });
});
