import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import type { RunningServer } from '../../src/server.js';
import type { RequestRecord } from '../../src/store/request-records.js';
import { basicOf, call, readPaths, type Session, seed, session } from '../support/operation-data.js';
import { startQuietServer } from '../support/test-server.js';
import { type Receiver, startReceiver } from '../support/webhook-receiver.js';

// One request path, however a request arrives: for every GET operation of the OpenAPI document, the
// answer (status, body, headers) and the request-inspector entry are the same over the socket
// (Node's entry), over the socket with a percent-encoded path (Node's server hands it to
// app.fetch), and in-process through app.fetch (what app.request, the dashboard and the scenario
// runner use). A second implementation of any route would differ somewhere here.

/** Headers of the transport or of the one request, not of the answer. */
const PER_REQUEST = new Set([
  'date',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'request-id',
]);

let server: RunningServer;
let receiver: Receiver;
let pool: Pool;
let s: Session;

beforeAll(async () => {
  server = await startQuietServer({ rateLimit: 1_000_000, accessLog: 'pretty', accessLogWrite: () => {} });
  receiver = await startReceiver();
  pool = new Pool(server.url, { connections: 2 });
  s = await session(`${server.url}/v3`, basicOf(DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET));
  await seed(s, `${receiver.url}/hook`);
}, 60_000);

afterAll(async () => {
  await pool?.close();
  await server?.close();
  await receiver?.close();
});

interface Seen {
  status: number;
  headers: Record<string, string>;
  body: string;
  entry: Omit<RequestRecord, 'id' | 'seq' | 'duration_cms'> | undefined;
}

const HEADERS = { 'user-agent': 'identity-test/1', accept: 'application/json' };

function entryOf(requestId: string): Seen['entry'] {
  server.deps.store.requests.catchUp();
  const row = server.deps.store.requests.get(requestId);
  if (!row) return undefined;
  const { id: _id, seq: _seq, duration_cms: _duration, ...rest } = row;
  return rest;
}

function seen(status: number, headers: Record<string, string>, body: string): Seen {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    // The bucket's remaining count moves with every request; that it is there is what matters.
    if (!PER_REQUEST.has(name)) kept[name] = name === 'ratelimit-remaining' ? 'n' : value;
  }
  return { status, headers: kept, body, entry: entryOf(headers['request-id'] ?? '') };
}

async function overSocket(path: string): Promise<Seen> {
  const res = await pool.request({ method: 'GET', path, headers: { ...HEADERS, ...s.headers() } });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) headers[name] = String(value);
  return seen(res.statusCode, headers, await res.body.text());
}

async function inProcess(path: string): Promise<Seen> {
  const res = await server.app.fetch(
    new Request(`${server.url}${path}`, {
      headers: { ...HEADERS, ...s.headers(), host: new URL(server.url).host },
    }),
  );
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return seen(res.status, headers, await res.text());
}

/** The same path with its last letter percent-encoded: Node's server passes it to app.fetch. */
function encoded(path: string): string {
  const at = path.search(/[a-z](?=[^a-z]*$)/);
  return `${path.slice(0, at)}%${path.charCodeAt(at).toString(16)}${path.slice(at + 1)}`;
}

describe('every GET of the document, however it arrives', () => {
  it('answers the same bytes and headers and records the same inspector entry', async () => {
    const document = await call<{ paths: Record<string, Record<string, unknown>> }>(
      s,
      'GET',
      '/openapi.json',
    );
    const paths = readPaths(document, s.ids);
    expect(paths.length).toBeGreaterThanOrEqual(25);
    for (const { template, path } of paths) {
      // An inspector entry read by id falls out of nothing here (the log holds 1,000).
      const full = `/v3${path}`;
      const socket = await overSocket(full);
      const passedOn = await overSocket(encoded(full));
      const local = await inProcess(full);
      expect(socket.status, template).toBe(200);
      // The inspector's own answers quote the log, which the requests above just grew.
      if (template.startsWith('/sandbox/requests')) continue;
      expect(passedOn, `${template} (percent-encoded, through app.fetch)`).toEqual(socket);
      expect(local, `${template} (in-process)`).toEqual(socket);
      expect(socket.entry, template).toMatchObject({ method: 'GET', path: full, status: 200 });
    }
  }, 60_000);
});
