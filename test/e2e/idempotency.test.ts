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

  it('caches final 4xx answers but not 401s', async () => {
    const sandbox = createTestSandbox();
    const bad = await sandbox.request('POST', '/v3/auth/credentials', {
      body: {},
      headers: { 'Idempotency-Key': 'bad' },
    });
    expect(bad.status).toBe(400);
    const replay = await create(sandbox, 'bad', 'now valid');
    expect(replay.status).toBe(400);
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');

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
