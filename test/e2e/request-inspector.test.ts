import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { randomIds } from '../../src/lib/ids.js';
import { memoryPersistence } from '../../src/store/persistence.js';
import { Store } from '../../src/store/store.js';
import { CPF } from '../support/customers.js';
import { openJournal } from '../support/journal.js';
import { basic, createTestSandbox, newPartnerToken, type TestSandbox } from '../support/sandbox.js';

interface Entry {
  id: string;
  method: string;
  path: string;
  query: string | null;
  status: number;
  duration_ms: number;
  idempotency_key: string | null;
  idempotent_replayed: boolean;
  error_code: string | null;
  request_headers: Record<string, string>;
  request_body: unknown;
  response_body: unknown;
  created_at: string;
}

async function log(sandbox: TestSandbox, query = ''): Promise<{ data: Entry[]; has_more: boolean }> {
  const res = await sandbox.json<{ data: Entry[]; has_more: boolean }>('GET', `/v3/sandbox/requests${query}`);
  expect(res.status).toBe(200);
  return res.body;
}

describe('Request-Id', () => {
  it('is on every /v3 response, success or problem, and names the problem occurrence', async () => {
    const sandbox = createTestSandbox();
    const ok = await sandbox.request('GET', '/v3/sandbox/clock');
    const missing = await sandbox.json<{ instance: string }>('GET', '/v3/customers/cus_nope');
    const unauthenticated = await sandbox.request('GET', '/v3/customers', { token: null });
    for (const res of [ok, missing, unauthenticated]) {
      expect(res.headers.get('Request-Id')).toMatch(/^req_[0-9a-f]{32}$/);
    }
    expect(new Set([ok, missing, unauthenticated].map((r) => r.headers.get('Request-Id'))).size).toBe(3);
    expect(missing.body.instance).toBe(`/v3/customers/cus_nope#${missing.headers.get('Request-Id')}`);
  });
});

describe('the request log', () => {
  it('keeps method, path, query, status, duration and both bodies, newest first', async () => {
    const sandbox = createTestSandbox();
    const created = await sandbox.json<{ id: string }>('POST', '/v3/customers', {
      body: { cpf: CPF.plain, name: 'Ana Souza' },
    });
    await sandbox.request('GET', '/v3/customers?limit=1');
    const { data } = await log(sandbox, '?path=/v3/customers');
    expect(data.map((e) => `${e.method} ${e.path}`)).toEqual(['GET /v3/customers', 'POST /v3/customers']);
    const [list, post] = data as [Entry, Entry];
    expect(list.query).toBe('limit=1');
    expect(list.request_body).toBeNull();
    expect(post).toMatchObject({
      id: created.headers.get('Request-Id'),
      status: 201,
      query: null,
      idempotency_key: null,
      idempotent_replayed: false,
      error_code: null,
      request_body: { cpf: CPF.plain, name: 'Ana Souza' },
      response_body: { id: created.body.id, name: 'Ana Souza' },
      created_at: '2026-03-02T12:00:00.000Z',
    });
    expect(post.request_headers['content-type']).toBe('application/json');
    expect(post.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('finds the request of a 4xx and of a 5xx by the Request-Id the partner got', async () => {
    const sandbox = createTestSandbox();
    const bad = await sandbox.request('POST', '/v3/customers', { body: { cpf: '123' } });
    expect(bad.status).toBe(400);
    // An unexpected failure inside a handler (a row its view cannot read) answers 500 and is logged too.
    const created = await sandbox.json<{ id: string }>('POST', '/v3/customers', { body: { cpf: CPF.plain } });
    const row = sandbox.deps.store.customers.get(created.body.id);
    if (!row) throw new Error('no customer row');
    sandbox.deps.store.customers.replace({ ...row, kyc: [null as never] });
    const originalError = sandbox.deps.log.error;
    sandbox.deps.log.error = () => {};
    const broken = await sandbox.request('GET', `/v3/customers/${created.body.id}`);
    sandbox.deps.log.error = originalError;
    expect(broken.status).toBe(500);
    for (const [res, status, code] of [
      [bad, 400, 'validation_failed'],
      [broken, 500, 'internal_error'],
    ] as const) {
      const id = res.headers.get('Request-Id');
      const entry = await sandbox.json<Entry>('GET', `/v3/sandbox/requests/${id}`);
      expect(entry.status).toBe(200);
      expect(entry.body).toMatchObject({ id, status, error_code: code });
    }
  });

  it('records the idempotency key and whether the answer was a replay', async () => {
    const sandbox = createTestSandbox();
    const headers = { 'Idempotency-Key': 'inspect-1' };
    await sandbox.request('POST', '/v3/customers', { body: { cpf: CPF.plain }, headers });
    const replay = await sandbox.request('POST', '/v3/customers', { body: { cpf: CPF.plain }, headers });
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    const [second, first] = (await log(sandbox, '?path=/v3/customers')).data as [Entry, Entry];
    expect(first).toMatchObject({ idempotency_key: 'inspect-1', idempotent_replayed: false, status: 201 });
    expect(second).toMatchObject({ idempotency_key: 'inspect-1', idempotent_replayed: true, status: 201 });
    expect(second.response_body).toEqual(first.response_body);
  });

  it('never keeps a secret: credentials, tokens, signing secrets and Authorization are redacted', async () => {
    const sandbox = createTestSandbox();
    const token = await sandbox.token();
    const credential = await sandbox.json<{ client_id: string; client_secret: string }>(
      'POST',
      '/v3/auth/credentials',
      { token, body: { name: 'billing' } },
    );
    const endpoint = await sandbox.json<{ id: string; secret: string }>('POST', '/v3/webhooks/endpoints', {
      token,
      body: { url: 'https://partner.example.com/hooks' },
    });
    const rotated = await sandbox.json<{ secret: string }>(
      'POST',
      `/v3/webhooks/endpoints/${endpoint.body.id}/secret/rotate`,
      { token, body: {} },
    );
    const partner = await sandbox.json<{ client_secret: string }>('POST', '/v3/sandbox/partners', {
      token,
      body: { name: 'other' },
    });
    // The token endpoint with the secret in a JSON body as well as in Basic auth.
    const second = await sandbox.app.request('/v3/auth/token', {
      method: 'POST',
      headers: {
        authorization: basic(credential.body.client_id, credential.body.client_secret),
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        grant_type: 'client_credentials',
        client_secret: credential.body.client_secret,
      }),
    });
    const secondToken = ((await second.json()) as { access_token: string }).access_token;
    const secrets = [
      token,
      secondToken,
      credential.body.client_secret,
      endpoint.body.secret,
      rotated.body.secret,
      partner.body.client_secret,
    ];
    expect(secrets.every((s) => typeof s === 'string' && s.length > 10)).toBe(true);

    const { data } = await log(sandbox, '?limit=100');
    expect(data.length).toBeGreaterThanOrEqual(5);
    const stored = JSON.stringify(sandbox.deps.store.requests.dump());
    for (const text of [JSON.stringify(data), stored]) {
      for (const secret of secrets) expect(text).not.toContain(secret);
    }
    const credentialEntry = data.find((e) => e.path === '/v3/auth/credentials');
    expect(credentialEntry?.response_body).toMatchObject({ client_secret: '[redacted]', name: 'billing' });
    expect(credentialEntry?.request_headers.authorization).toBe('Bearer [redacted]');
    const tokenEntry = data.find((e) => e.path === '/v3/auth/token' && e.request_body !== null);
    expect(tokenEntry?.request_body).toEqual({
      grant_type: 'client_credentials',
      client_secret: '[redacted]',
    });
    expect(tokenEntry?.response_body).toMatchObject({ access_token: '[redacted]', token_type: 'Bearer' });
  });

  it('is a ring of --request-log-size requests per partner', async () => {
    const sandbox = createTestSandbox({ requestLogSize: 3 });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await sandbox.request('GET', `/v3/sandbox/clock?n=${i}`)).headers.get('Request-Id') ?? '');
    }
    const { data } = await log(sandbox);
    expect(data.map((e) => e.query)).toEqual(['n=4', 'n=3', 'n=2']);
    // The log read itself joined the ring and pushed n=2 out.
    expect(sandbox.deps.store.requests.size).toBe(3);
    expect((await log(sandbox)).data.map((e) => e.query ?? e.path)).toEqual([
      '/v3/sandbox/requests',
      'n=4',
      'n=3',
    ]);
    const gone = await sandbox.json<{ code: string }>('GET', `/v3/sandbox/requests/${ids[0]}`);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('resource_not_found');
  });

  it('keeps nothing with size 0, but still answers Request-Id', async () => {
    const sandbox = createTestSandbox({ requestLogSize: 0 });
    const res = await sandbox.request('GET', '/v3/sandbox/clock');
    expect(res.headers.get('Request-Id')).toMatch(/^req_/);
    expect((await log(sandbox)).data).toEqual([]);
  });

  it('filters by status (exact or class), method and path prefix, and pages with starting_after', async () => {
    const sandbox = createTestSandbox();
    await sandbox.request('POST', '/v3/customers', { body: { cpf: CPF.plain } });
    await sandbox.request('POST', '/v3/customers', { body: { cpf: '123' } }); // 400
    await sandbox.request('GET', '/v3/customers/cus_missing'); // 404
    await sandbox.request('GET', '/v3/loans');
    await sandbox.request('GET', '/v3/sandbox/clock');
    const paths = (entries: Entry[]) => entries.map((e) => `${e.method} ${e.path} ${e.status}`);
    expect(paths((await log(sandbox, '?status=4xx')).data)).toEqual([
      'GET /v3/customers/cus_missing 404',
      'POST /v3/customers 400',
    ]);
    expect(paths((await log(sandbox, '?status=404')).data)).toEqual(['GET /v3/customers/cus_missing 404']);
    expect(paths((await log(sandbox, '?method=post&path=/v3/customers')).data)).toEqual([
      'POST /v3/customers 400',
      'POST /v3/customers 201',
    ]);
    expect(paths((await log(sandbox, '?method=post')).data)).toContain('POST /v3/auth/token 200');
    expect(paths((await log(sandbox, '?path=/v3/customers&method=GET')).data)).toEqual([
      'GET /v3/customers/cus_missing 404',
    ]);
    const first = await log(sandbox, '?path=/v3/customers&limit=2');
    expect(first.has_more).toBe(true);
    const rest = await log(sandbox, `?path=/v3/customers&limit=2&starting_after=${first.data[1]?.id}`);
    expect(paths([...first.data, ...rest.data])).toEqual([
      'GET /v3/customers/cus_missing 404',
      'POST /v3/customers 400',
      'POST /v3/customers 201',
    ]);
    expect(rest.has_more).toBe(false);
    const badStatus = await sandbox.json<{ param: string }>('GET', '/v3/sandbox/requests?status=teapot');
    expect(badStatus.status).toBe(400);
    expect(badStatus.body.param).toBe('status');
  });

  it("never shows another partner's requests", async () => {
    const sandbox = createTestSandbox();
    const mine = await sandbox.request('GET', '/v3/sandbox/clock');
    // Read by its owner first: its JSON is kept from then on, and must still answer no one else.
    const own = await sandbox.request('GET', `/v3/sandbox/requests/${mine.headers.get('Request-Id')}`);
    expect(own.status).toBe(200);
    const other = await newPartnerToken(sandbox);
    const theirs = await sandbox.json<{ data: Entry[] }>('GET', '/v3/sandbox/requests', {
      token: other.token,
    });
    // Only the token request that made `other.token`: it authenticated as the other partner.
    expect(theirs.body.data.map((e) => e.path)).toEqual(['/v3/auth/token']);
    const peek = await sandbox.request('GET', `/v3/sandbox/requests/${mine.headers.get('Request-Id')}`, {
      token: other.token,
    });
    expect(peek.status).toBe(404);
  });

  it('is persisted with the rest of the data and survives a restart', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'credit-sandbox-')), 'sandbox.json');
    const store = new Store(Buffer.alloc(32, 3).toString('base64url'));
    const first = createTestSandbox({}, { store, persistence: await openJournal(path, store) });
    const token = await first.token();
    const created = await first.request('POST', '/v3/customers', { token, body: { cpf: CPF.plain } });
    await first.deps.persistence.flush();

    const restored = new Store('replaced-on-load');
    const second = createTestSandbox(
      {},
      { store: restored, persistence: await openJournal(path, restored), ids: randomIds },
    );
    const entry = await second.json<Entry>(
      'GET',
      `/v3/sandbox/requests/${created.headers.get('Request-Id')}`,
      {
        token,
      },
    );
    expect(entry.status).toBe(200);
    expect(entry.body).toMatchObject({ method: 'POST', path: '/v3/customers', status: 201 });
  });

  it('is flushed within a second after reads, which write nothing else', async () => {
    let flushes = 0;
    const sandbox = createTestSandbox(
      {},
      {
        persistence: {
          flush: async () => void flushes++,
          close: async () => {},
          health: memoryPersistence.health,
        },
      },
    );
    const token = await sandbox.token();
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const before = flushes;
      await sandbox.request('GET', '/v3/sandbox/clock', { token });
      await sandbox.request('GET', '/v3/sandbox/clock', { token });
      expect(flushes).toBe(before);
      vi.advanceTimersByTime(1000);
      expect(flushes).toBe(before + 1);
    } finally {
      vi.useRealTimers();
    }
  });
});
