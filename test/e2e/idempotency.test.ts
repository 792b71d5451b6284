import { describe, expect, it } from 'vitest';
import { createTestSandbox, newPartnerToken } from '../support/sandbox.js';

const create = (sandbox: ReturnType<typeof createTestSandbox>, key: string, name: string, token?: string) =>
  sandbox.request('POST', '/v3/auth/credentials', {
    body: { name },
    headers: { 'Idempotency-Key': key },
    ...(token ? { token } : {}),
  });

async function credentialCount(sandbox: ReturnType<typeof createTestSandbox>): Promise<number> {
  const list = await sandbox.json<{ data: unknown[] }>('GET', '/v3/auth/credentials?limit=100');
  return list.body.data.length;
}

describe('Idempotency-Key', () => {
  it('replays the first response for the same key, marked Idempotent-Replayed, without reprocessing', async () => {
    const sandbox = createTestSandbox();
    const first = await create(sandbox, 'key-1', 'first');
    const firstBody = await first.text();
    expect(first.status).toBe(201);
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();

    const again = await create(sandbox, 'key-1', 'first');
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await again.text()).toBe(firstBody);
    expect(await credentialCount(sandbox)).toBe(2); // the default one + one created
  });

  it('does not compare bodies: a different body with the same key gets the first response', async () => {
    const sandbox = createTestSandbox();
    const first = await (await create(sandbox, 'same', 'original')).text();
    const second = await create(sandbox, 'same', 'something else');
    expect(await second.text()).toBe(first);
    expect(JSON.parse(first).name).toBe('original');
  });

  it('expires after 24 hours of the partner clock', async () => {
    const sandbox = createTestSandbox();
    const first = JSON.parse(await (await create(sandbox, 'day', 'x')).text());
    await sandbox.json('POST', '/v3/sandbox/clock/advance', { body: { by: '23h' } });
    const within = await create(sandbox, 'day', 'x');
    expect(within.headers.get('Idempotent-Replayed')).toBe('true');
    expect(JSON.parse(await within.text()).client_id).toBe(first.client_id);
    await sandbox.json('POST', '/v3/sandbox/clock/advance', { body: { by: '1h' } });
    const after = await create(sandbox, 'day', 'x');
    expect(after.status).toBe(201);
    expect(after.headers.get('Idempotent-Replayed')).toBeNull();
    expect(JSON.parse(await after.text()).client_id).not.toBe(first.client_id);
    expect(await credentialCount(sandbox)).toBe(3);
  });

  it('scopes keys per partner', async () => {
    const sandbox = createTestSandbox();
    const other = await newPartnerToken(sandbox);
    const mine = JSON.parse(await (await create(sandbox, 'shared-key', 'mine')).text());
    const theirs = await create(sandbox, 'shared-key', 'theirs', other.token);
    expect(theirs.headers.get('Idempotent-Replayed')).toBeNull();
    expect(JSON.parse(await theirs.text()).client_id).not.toBe(mine.client_id);
  });

  it('makes 20 concurrent requests with one key produce exactly one resource and identical responses', async () => {
    const sandbox = createTestSandbox();
    await sandbox.token(); // warm the default token so all 20 race on the key, not on auth
    const responses = await Promise.all(Array.from({ length: 20 }, () => create(sandbox, 'race', 'racer')));
    const bodies = await Promise.all(responses.map((r) => r.text()));
    expect(new Set(bodies).size).toBe(1);
    expect(responses.every((r) => r.status === 201)).toBe(true);
    expect(responses.filter((r) => r.headers.get('Idempotent-Replayed') === 'true')).toHaveLength(19);
    expect(await credentialCount(sandbox)).toBe(2);
  });

  it('caches a 400 and replays it: the spec caches every processed POST, errors included', async () => {
    const sandbox = createTestSandbox();
    const bad = await sandbox.request('POST', '/v3/customers', {
      body: { cpf: 'x' },
      headers: { 'Idempotency-Key': 'k-400' },
    });
    const badBody = await bad.text();
    expect(bad.status).toBe(400);
    expect(bad.headers.get('Idempotent-Replayed')).toBeNull();
    const corrected = await sandbox.request('POST', '/v3/customers', {
      body: { cpf: '529.982.247-25' },
      headers: { 'Idempotency-Key': 'k-400' },
    });
    expect(corrected.status).toBe(400);
    expect(corrected.headers.get('Idempotent-Replayed')).toBe('true');
    expect(corrected.headers.get('content-type')).toContain('application/problem+json');
    expect(await corrected.text()).toBe(badBody);
    const customers = await sandbox.json<{ data: unknown[] }>('GET', '/v3/customers');
    expect(customers.body.data).toHaveLength(0);

    const malformed = await sandbox.request('POST', '/v3/auth/credentials', {
      body: '{"name":',
      headers: { 'Idempotency-Key': 'malformed' },
    });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { code: string }).code).toBe('malformed_json');
    const fixed = await create(sandbox, 'malformed', 'fixed');
    expect(fixed.status).toBe(400);
    expect(fixed.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await credentialCount(sandbox)).toBe(1);
    // A new key is processed.
    expect((await create(sandbox, 'fresh', 'fixed')).status).toBe(201);
  });

  it('caches a body refused before validation (invalid UTF-8) like any other 400', async () => {
    const sandbox = createTestSandbox();
    const token = await sandbox.token();
    const send = (body: Uint8Array | string) =>
      sandbox.app.request('/v3/auth/credentials', {
        method: 'POST',
        body,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'idempotency-key': 'utf8',
        },
      });
    const bad = await send(
      new Uint8Array([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]),
    );
    expect(bad.status).toBe(400);
    const again = await send('{"name":"ok"}');
    expect(again.status).toBe(400);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
  });

  it('lets a request that waited on a malformed one with the same key answer its cached 400', async () => {
    const sandbox = createTestSandbox();
    await sandbox.token();
    const [bad, good] = await Promise.all([
      sandbox.request('POST', '/v3/auth/credentials', { body: {}, headers: { 'Idempotency-Key': 'pair' } }),
      create(sandbox, 'pair', 'valid'),
    ]);
    expect(bad.status).toBe(400);
    expect(good.status).toBe(400);
    expect(good.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await credentialCount(sandbox)).toBe(1);
  });

  it('caches a 422 refused by a rule, and never a 401 or a 429', async () => {
    const sandbox = createTestSandbox();
    const refused = await sandbox.request('POST', '/v3/customers', {
      body: { cpf: '111.111.111-11' },
      headers: { 'Idempotency-Key': 'rule' },
    });
    expect(refused.status).toBe(422);
    const again = await sandbox.request('POST', '/v3/customers', {
      body: { cpf: '529.982.247-25' },
      headers: { 'Idempotency-Key': 'rule' },
    });
    expect(again.status).toBe(422);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');

    const unauthorized = await sandbox.request('POST', '/v3/auth/credentials', {
      body: { name: 'x' },
      headers: { 'Idempotency-Key': 'auth', authorization: 'Bearer nope' },
      token: null,
    });
    expect(unauthorized.status).toBe(401);
    const retried = await create(sandbox, 'auth', 'x');
    expect(retried.status).toBe(201);
    expect(retried.headers.get('Idempotent-Replayed')).toBeNull();
  });

  it('does not cache a 429: the retry after the limit refills is processed', async () => {
    const sandbox = createTestSandbox({ rateLimit: 2 });
    const token = await sandbox.token(); // counts: 1 left
    await sandbox.request('GET', '/v3/sandbox/clock', { token });
    const limited = await create(sandbox, 'limited', 'x', token);
    expect(limited.status).toBe(429);
    sandbox.realTime.tick(1000);
    const retried = await create(sandbox, 'limited', 'x', token);
    expect(retried.status).toBe(201);
    expect(retried.headers.get('Idempotent-Replayed')).toBeNull();
  });

  it('refuses an over-long key with 400 naming the header', async () => {
    const sandbox = createTestSandbox();
    const res = await sandbox.json('POST', '/v3/auth/credentials', {
      body: { name: 'x' },
      headers: { 'Idempotency-Key': 'k'.repeat(256) },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ param: 'Idempotency-Key' });
  });

  it('applies only to the POST operations the spec lists', async () => {
    const sandbox = createTestSandbox();
    const a = await sandbox.request('POST', '/v3/sandbox/partners', {
      body: {},
      headers: { 'Idempotency-Key': 'p' },
    });
    const b = await sandbox.request('POST', '/v3/sandbox/partners', {
      body: {},
      headers: { 'Idempotency-Key': 'p' },
    });
    expect(b.headers.get('Idempotent-Replayed')).toBeNull();
    expect(((await a.json()) as { id: string }).id).not.toBe(((await b.json()) as { id: string }).id);
  });
});

describe('Idempotency-Key bound to its operation', () => {
  it('answers 422 idempotency_key_reused naming the first operation and leaks nothing of its response', async () => {
    const sandbox = createTestSandbox();
    const endpoint = await sandbox.json<{ secret: string; id: string }>('POST', '/v3/webhooks/endpoints', {
      body: { url: 'https://example.com/hook' },
      headers: { 'Idempotency-Key': 'k1' },
    });
    expect(endpoint.status).toBe(201);

    const reused = await sandbox.request('POST', '/v3/customers', {
      body: { cpf: '529.982.247-25' },
      headers: { 'Idempotency-Key': 'k1' },
    });
    const text = await reused.text();
    expect(reused.status).toBe(422);
    expect(reused.headers.get('Idempotent-Replayed')).toBeNull();
    const problem = JSON.parse(text) as { code: string; detail: string; param: string };
    expect(problem.code).toBe('idempotency_key_reused');
    expect(problem.param).toBe('Idempotency-Key');
    expect(problem.detail).toContain('POST /v3/webhooks/endpoints');
    expect(text).not.toContain(endpoint.body.secret);
    expect(text).not.toContain(endpoint.body.id);
    const customers = await sandbox.json<{ data: unknown[] }>('GET', '/v3/customers');
    expect(customers.body.data).toHaveLength(0);
  });

  it('binds the key to the path too: the same operation on another resource is refused', async () => {
    const sandbox = createTestSandbox();
    const a = await sandbox.json<{ id: string }>('POST', '/v3/customers', {
      body: { cpf: '529.982.247-25' },
    });
    const b = await sandbox.json<{ id: string }>('POST', '/v3/customers', {
      body: { cpf: '123.456.789-09' },
    });
    const first = await sandbox.request('POST', `/v3/customers/${a.body.id}/biometrics`, {
      headers: { 'Idempotency-Key': 'bio' },
    });
    expect(first.status).toBe(200);
    const other = await sandbox.json<{ code: string; detail: string }>(
      'POST',
      `/v3/customers/${b.body.id}/biometrics`,
      { headers: { 'Idempotency-Key': 'bio' } },
    );
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('idempotency_key_reused');
    expect(other.body.detail).toContain(`/v3/customers/${a.body.id}/biometrics`);
    const same = await sandbox.request('POST', `/v3/customers/${a.body.id}/biometrics`, {
      headers: { 'Idempotency-Key': 'bio' },
    });
    expect(same.status).toBe(200);
    expect(same.headers.get('Idempotent-Replayed')).toBe('true');
  });

  it('refuses the same key on another operation sent at the same time as the first', async () => {
    const sandbox = createTestSandbox();
    await sandbox.token();
    const [first, second] = await Promise.all([
      create(sandbox, 'race-op', 'cred'),
      sandbox.request('POST', '/v3/webhooks/endpoints', {
        body: { url: 'https://example.com/hook' },
        headers: { 'Idempotency-Key': 'race-op' },
      }),
    ]);
    expect(first.status).toBe(201);
    expect(second.status).toBe(422);
    expect(((await second.json()) as { code: string }).code).toBe('idempotency_key_reused');
  });
});
