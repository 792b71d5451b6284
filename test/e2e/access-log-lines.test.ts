import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import type { RunningServer } from '../../src/server.js';
import { startQuietServer } from '../support/test-server.js';

// One access line per request however its answer was made: a read answered synchronously, a
// write answered after its promise (logged once written), and a write whose connection a fault
// cut (logged although nothing was sent). Over a real socket, through Node's entry.

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The access log's lines, and a way to wait for the one that names a request. */
function capturedLog() {
  const lines: string[] = [];
  const waiting: { match: (line: string) => boolean; resolve: (line: string) => void }[] = [];
  const write = (text: string) => {
    for (const line of text.split('\n').filter(Boolean)) {
      lines.push(line);
      for (const w of waiting.splice(0)) {
        if (w.match(line)) w.resolve(line);
        else waiting.push(w);
      }
    }
  };
  const line = (match: (line: string) => boolean) =>
    new Promise<string>((resolve) => {
      const seen = lines.find(match);
      if (seen) resolve(seen);
      else waiting.push({ match, resolve });
    });
  return { lines, write, line };
}

/** A POST over a fresh connection; resolves when the client sees an answer or an error. */
function post(url: string, auth: string, body: unknown): Promise<number | string> {
  return new Promise((resolve) => {
    const req = httpRequest(`${url}/v3/customers`, {
      method: 'POST',
      agent: false,
      headers: { authorization: auth, 'content-type': 'application/json' },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    req.end(JSON.stringify(body));
  });
}

describe('the access log', () => {
  it('has one line for a synchronous read, a written answer of a write, and a write whose connection was cut', async () => {
    const log = capturedLog();
    server = await startQuietServer({ accessLog: 'json', accessLogWrite: log.write });
    const basic = Buffer.from(`${DEFAULT_CLIENT_ID}:${DEFAULT_CLIENT_SECRET}`).toString('base64');
    const token = await fetch(`${server.url}/v3/auth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}` },
    });
    const auth = `Bearer ${((await token.json()) as { access_token: string }).access_token}`;

    const clock = await fetch(`${server.url}/v3/sandbox/clock`, { headers: { authorization: auth } });
    expect(clock.status).toBe(200);
    const readId = clock.headers.get('request-id');
    const read = JSON.parse(await log.line((l) => l.includes(String(readId))));
    expect(read).toMatchObject({ method: 'GET', path: '/v3/sandbox/clock', status: 200 });

    expect(await post(server.url, auth, { cpf: '52998224725', name: 'Maria da Silva' })).toBe(201);
    const rule = await fetch(`${server.url}/v3/sandbox/faults`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ match: { path: '/customers' }, action: { reset: true }, times: 1 }),
    });
    expect(rule.status).toBe(201);
    expect(await post(server.url, auth, { cpf: '11144477735', name: 'Ana Souza' })).toBe('ECONNRESET');

    const isPost = (l: string) => l.includes('"method":"POST"') && l.includes('"/v3/customers"');
    await log.line((l) => isPost(l) && !l.includes('"status":201'));
    const posts = log.lines
      .filter(isPost)
      .map((l) => JSON.parse(l) as { status: number; request_id: string });
    expect(posts).toHaveLength(2);
    expect(posts[0]?.status).toBe(201);
    expect(new Set(posts.map((p) => p.request_id)).size).toBe(2);
  });
});
