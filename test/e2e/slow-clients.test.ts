import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import type { RunningServer, ServeOptions } from '../../src/server.js';
import { RawReader } from '../support/raw-http.js';
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

async function healthy(url: string): Promise<void> {
  const res = await fetch(`${url}/healthz`);
  expect(res.status).toBe(200);
  await res.text();
}

const slowBody = (token: string) =>
  `POST /v3/customers HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"cpf":`;

describe('slow clients are cut off (real sockets on 127.0.0.1)', () => {
  // How soon after the limit a connection is cut depends on how often Node checks (a quarter of
  // the shortest limit: connection-limits.test.ts) and on how busy the machine is: only the lower
  // bound is the server's; speed is measured in bench/.
  it('cuts off a body shorter than its Content-Length at the request timeout', async () => {
    const { port, url } = await start({ headersTimeoutMs: 400, requestTimeoutMs: 800 });
    const outcome = await rawClient(port, slowBody(await accessToken(url)));
    // The spec's table has no 408: its 400, as a problem document.
    expectProblem(outcome.received, 400, 'request_timeout');
    expect(outcome.closedAfterMs).toBeGreaterThanOrEqual(700);
  });

  it('answers other requests while a slow client holds its connection', async () => {
    // The slow client's limit is far away: the others are answered while it is surely held.
    const { port, url } = await start({ headersTimeoutMs: 60_000, requestTimeoutMs: 600_000 });
    let closed = false;
    const slow = rawClient(port, slowBody(await accessToken(url))).finally(() => {
      closed = true;
    });
    for (let i = 0; i < 5; i++) await healthy(url);
    expect(closed).toBe(false);
    for (const socket of sockets) socket.destroy();
    await slow;
  });

  it('cuts off unfinished headers within the headers timeout', async () => {
    const { port } = await start({ headersTimeoutMs: 300, requestTimeoutMs: 5_000 });
    const outcome = await rawClient(port, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: a');
    expectProblem(outcome.received, 400, 'request_timeout');
    expect(outcome.closedAfterMs).toBeGreaterThanOrEqual(250);
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
    await healthy(url);
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
    const { port } = await start({ headersTimeoutMs: 200, requestTimeoutMs: 300 });
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    const reader = new RawReader(socket);
    const get = 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
    socket.write(get);
    expect((await reader.message()).head).toMatch(/^HTTP\/1\.1 200 /);
    // Idle for longer than both limits: a keep-alive connection between requests is not a slow
    // request (and stays open a minute past its keep-alive hint: keep-alive.test.ts).
    await new Promise((resolve) => setTimeout(resolve, 500));
    socket.write(get);
    expect((await reader.message()).head).toMatch(/^HTTP\/1\.1 200 /);
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
    // The server counts the connection out when it sees it close, a moment later: until then a new
    // one is still over the cap.
    let accepted = '';
    while (!accepted.startsWith('HTTP/1.1 200')) {
      accepted = (
        await rawClient(port, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n')
      ).received;
      expect(accepted).toMatch(/^HTTP\/1\.1 (200|429)/);
    }
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
