import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Contract } from '../../src/proxy/contract.js';
import { type RunningProxy, startProxy } from '../../src/proxy/proxy-server.js';
import type { RecordingLine } from '../../src/proxy/recording-format.js';
import { chunkedBody, RawReader } from '../support/raw-http.js';

/**
 * The proxy adds no header and changes no byte: an upstream that writes raw HTTP (mixed-case and
 * repeated headers, its own Date, chunked and large bodies) is read through the proxy by a client
 * that reads raw bytes too, on one kept-alive connection.
 */

const PLAIN_BODY = Buffer.from('{"id":"cust_1","status":"active","note":"ação ✓"}');
const PLAIN_HEAD = [
  'HTTP/1.1 200 OK',
  'X-Mixed-Case: Yes',
  'Set-Cookie: a=1',
  'Set-Cookie: b=2',
  'Content-Type: application/json; charset=utf-8',
  'Date: Thu, 01 Jan 2026 00:00:00 GMT',
  'Connection: keep-alive',
  `Content-Length: ${PLAIN_BODY.length}`,
].join('\r\n');
const CHUNKS = [1, 1000, 65_536, 1_048_576, 7, 2_000_000, 3].map((size) => randomBytes(size));
const CHUNKED_HEAD = [
  'HTTP/1.1 200 OK',
  'Content-Type: application/octet-stream',
  'transfer-encoding: chunked',
  'Date: Thu, 01 Jan 2026 00:00:01 GMT',
  'Connection: keep-alive',
].join('\r\n');

let connections = 0;

function upstreamServer(): Server {
  return createServer((socket: Socket) => {
    connections++;
    const reader = new RawReader(socket);
    void (async () => {
      for (;;) {
        const request = await reader.message();
        const [method, target] = request.head.split(' ');
        if (target === '/v3/plain' && method === 'GET')
          socket.write(Buffer.concat([Buffer.from(`${PLAIN_HEAD}\r\n\r\n`), PLAIN_BODY]));
        else if (target === '/v3/plain' && method === 'HEAD') socket.write(`${PLAIN_HEAD}\r\n\r\n`);
        else if (target === '/v3/chunked')
          socket.write(Buffer.concat([Buffer.from(`${CHUNKED_HEAD}\r\n\r\n`), chunkedBody(CHUNKS)]));
        else if (target === '/v3/empty')
          socket.write('HTTP/1.1 204 No Content\r\nX-Trace: 1\r\nConnection: keep-alive\r\n\r\n');
        else {
          const body = Buffer.from(
            JSON.stringify({
              sha256: createHash('sha256').update(request.body).digest('hex'),
              bytes: request.body.length,
              chunked: request.chunked,
              headers: request.headerLines,
            }),
          );
          socket.write(
            `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: keep-alive\r\nContent-Length: ${body.length}\r\n\r\n`,
          );
          socket.write(body);
        }
      }
    })().catch(() => socket.destroy());
  });
}

describe('the proxy forwards bytes unchanged', () => {
  let upstream: Server;
  let proxy: RunningProxy;
  let client: Socket;
  let reader: RawReader;
  const lines: RecordingLine[] = [];

  beforeAll(async () => {
    upstream = upstreamServer();
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const port = (upstream.address() as AddressInfo).port;
    proxy = await startProxy({
      upstream: `http://127.0.0.1:${port}/v3`,
      contract: new Contract({ openapi: '3.1.0', paths: {} }),
      onLine: (line) => lines.push(line),
    });
    const proxyPort = new URL(proxy.baseUrl).port;
    client = connect(Number(proxyPort), '127.0.0.1');
    reader = new RawReader(client);
    await new Promise<void>((resolve) => client.once('connect', resolve));
  });
  afterAll(async () => {
    client.destroy();
    await proxy.close();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  });

  it('a fixed-length answer: status line, headers (case, order, repeats, Date) and body as the upstream wrote them', async () => {
    client.write('GET /v3/plain HTTP/1.1\r\nHost: proxy.test\r\nConnection: keep-alive\r\n\r\n');
    const answer = await reader.message();
    expect(answer.head).toBe(PLAIN_HEAD);
    expect(answer.body.equals(PLAIN_BODY)).toBe(true);
  });

  it('a chunked answer of 3 MiB (over the validation limit): chunked still, every byte the same', async () => {
    client.write('GET /v3/chunked HTTP/1.1\r\nHost: proxy.test\r\n\r\n');
    const answer = await reader.message();
    expect(answer.head).toBe(CHUNKED_HEAD);
    expect(answer.chunked).toBe(true);
    expect(answer.body.equals(Buffer.concat(CHUNKS))).toBe(true);
  });

  it('uploads: a 5 MiB fixed-length body and an 8 MiB chunked one reach the upstream whole, headers as sent', async () => {
    const fixed = randomBytes(5 * 1024 * 1024);
    const sent = [
      'X-Request-Case: Kept',
      'content-type: application/octet-stream',
      `Content-Length: ${fixed.length}`,
    ];
    client.write(`POST /v3/echo HTTP/1.1\r\nHost: proxy.test\r\n${sent.join('\r\n')}\r\n\r\n`);
    client.write(fixed);
    const echo = JSON.parse((await reader.message()).body.toString('utf8'));
    expect(echo).toMatchObject({
      sha256: createHash('sha256').update(fixed).digest('hex'),
      bytes: fixed.length,
    });
    // The upstream's connection has its own Host and Connection; every other header is the client's,
    // in order and case, but the framing header undici writes itself (same value, lower case).
    const own = /^(host|connection):/i;
    const framing = (line: string) => (/^content-length:/i.test(line) ? line.toLowerCase() : line);
    expect((echo.headers as string[]).filter((line) => !own.test(line))).toEqual(sent.map(framing));

    const parts = [randomBytes(3 * 1024 * 1024), randomBytes(17), randomBytes(5 * 1024 * 1024)];
    client.write('POST /v3/echo HTTP/1.1\r\nHost: proxy.test\r\nTransfer-Encoding: chunked\r\n\r\n');
    client.write(chunkedBody(parts));
    const chunkedEcho = JSON.parse((await reader.message()).body.toString('utf8'));
    expect(chunkedEcho).toMatchObject({
      sha256: createHash('sha256').update(Buffer.concat(parts)).digest('hex'),
      bytes: 8 * 1024 * 1024 + 17,
      chunked: true,
    });
  });

  it('kept the connections alive: one from the client, one to the upstream', () => {
    expect(connections).toBe(1);
  });

  it('a HEAD answer and a 204: the same head, no body (undici opens a new connection after a HEAD)', async () => {
    client.write('HEAD /v3/plain HTTP/1.1\r\nHost: proxy.test\r\n\r\n');
    expect((await reader.message(true)).head).toBe(PLAIN_HEAD);
    client.write('GET /v3/empty HTTP/1.1\r\nHost: proxy.test\r\n\r\n');
    expect((await reader.message(true)).head).toBe(
      'HTTP/1.1 204 No Content\r\nX-Trace: 1\r\nConnection: keep-alive',
    );
  });

  it('records large bodies by size, with a note, unvalidated', async () => {
    await proxy.close();
    const chunked = lines.find((line) => 'request' in line && line.request.path === '/v3/chunked');
    expect(chunked && 'response' in chunked ? chunked.response.body_bytes : 0).toBe(
      Buffer.concat(CHUNKS).length,
    );
    expect(chunked?.notes).toContain('response body: 3115123 bytes, over the validation limit, not recorded');
  });
});
