import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import type { RunningServer } from '../../src/server.js';
import { startQuietServer } from '../support/test-server.js';

// A real server on 127.0.0.1: the request log reads Node's own request objects there (headers,
// raw query) and builds each entry after the response has gone, unlike `app.request()`.
let server: RunningServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Logged {
  id: string;
  method: string;
  path: string;
  query: string | null;
  status: number;
  idempotency_key: string | null;
  request_headers: Record<string, string>;
  request_body: unknown;
  response_body: unknown;
}

async function start(): Promise<{ url: string; headers: Record<string, string> }> {
  server = await startQuietServer();
  const basic = Buffer.from(`${DEFAULT_CLIENT_ID}:${DEFAULT_CLIENT_SECRET}`).toString('base64');
  const res = await fetch(`${server.url}/v3/auth/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}` },
  });
  const { access_token } = (await res.json()) as { access_token: string };
  return { url: server.url, headers: { authorization: `Bearer ${access_token}` } };
}

describe('request inspector on a real server', () => {
  it('records headers, query and bodies from Node, and each request sees the one answered before it', async () => {
    const { url, headers } = await start();
    const created = await fetch(`${url}/v3/customers`, {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'application/json',
        'idempotency-key': 'idem-server-1',
        'user-agent': 'partner-app/2.1',
      },
      body: JSON.stringify({ cpf: '529.982.247-25', name: 'Maria Conceição', email: 'maria@example.com' }),
    });
    expect(created.status).toBe(201);
    const customer = (await created.json()) as { id: string };
    const createdId = created.headers.get('request-id');

    // Asked right after the answer: the entry is there, with what Node received.
    const shown = await fetch(`${url}/v3/sandbox/requests/${createdId}`, { headers });
    expect(shown.status).toBe(200);
    const entry = (await shown.json()) as Logged;
    expect(entry).toMatchObject({
      method: 'POST',
      path: '/v3/customers',
      status: 201,
      idempotency_key: 'idem-server-1',
      request_headers: {
        authorization: 'Bearer [redacted]',
        'content-type': 'application/json',
        'idempotency-key': 'idem-server-1',
        'user-agent': 'partner-app/2.1',
      },
      request_body: { cpf: '529.982.247-25', name: 'Maria Conceição', email: 'maria@example.com' },
      response_body: { id: customer.id, name: 'Maria Conceição' },
    });

    // A burst of reads, each followed at once by a list: every list includes the read before it.
    for (let i = 0; i < 20; i++) {
      const read = await fetch(`${url}/v3/customers?limit=${i + 1}`, { headers });
      const readId = read.headers.get('request-id');
      const list = await fetch(`${url}/v3/sandbox/requests?limit=1`, { headers });
      const page = (await list.json()) as { data: Logged[] };
      expect(page.data[0]).toMatchObject({ id: readId, path: '/v3/customers', query: `limit=${i + 1}` });
    }
  });

  it('never writes a secret into the log, the token answer included', async () => {
    const { url, headers } = await start();
    const list = await fetch(`${url}/v3/sandbox/requests?path=/v3/auth/token`, { headers });
    const text = await list.text();
    expect(text).toContain('[redacted]');
    expect(text).not.toContain(headers.authorization?.slice('Bearer '.length) ?? 'missing token');
  });
});
