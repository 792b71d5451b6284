import { describe, expect, it } from 'vitest';
import { basic, createTestSandbox, newPartnerToken } from '../support/sandbox.js';

const DAY = 86_400_000;

describe('POST /v3/auth/token', () => {
  it('issues an OAuth 2.0 client-credentials token with the svc_at_ prefix', async () => {
    const sandbox = createTestSandbox();
    const res = await sandbox.app.request('/v3/auth/token', {
      method: 'POST',
      headers: { authorization: basic('cid_sandbox_default', 'svc_cs_test_sandbox_default_secret') },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({
      access_token: expect.stringMatching(/^svc_at_[\w-]+\.[\w-]+\.[\w-]+$/),
      token_type: 'Bearer',
      expires_in: 3600,
    });
    const claims = JSON.parse(
      Buffer.from(String(body.access_token).split('.')[1] ?? '', 'base64url').toString(),
    );
    expect(claims).toMatchObject({ partner: 'ptn_default', client_id: 'cid_sandbox_default' });
    expect(claims.exp - claims.iat).toBe(3600);
    expect(claims.jti).toMatch(/^jti_/);
  });

  it.each([
    ['form body', 'application/x-www-form-urlencoded', 'grant_type=client_credentials'],
    ['JSON body', 'application/json', '{"grant_type":"client_credentials"}'],
    ['empty body', undefined, undefined],
  ])('accepts a %s', async (_name, type, body) => {
    const sandbox = createTestSandbox();
    const headers: Record<string, string> = {
      authorization: basic('cid_sandbox_default', 'svc_cs_test_sandbox_default_secret'),
    };
    if (type) headers['content-type'] = type;
    const res = await sandbox.app.request('/v3/auth/token', { method: 'POST', headers, body });
    expect(res.status).toBe(200);
  });

  it('refuses another grant type with 400 and param grant_type', async () => {
    const sandbox = createTestSandbox();
    const res = await sandbox.app.request('/v3/auth/token', {
      method: 'POST',
      headers: {
        authorization: basic('cid_sandbox_default', 'svc_cs_test_sandbox_default_secret'),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=password',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'unsupported_grant_type', param: 'grant_type' });
  });

  it.each([
    ['no header', undefined, 'authentication_required'],
    ['wrong secret', basic('cid_sandbox_default', 'svc_cs_test_wrong'), 'invalid_client'],
    ['unknown client', basic('cid_nobody', 'svc_cs_test_x'), 'invalid_client'],
    ['garbage', 'Basic !!!', 'invalid_client'],
    ['bearer instead of basic', 'Bearer abc', 'invalid_client'],
  ])('answers 401 problem for %s', async (_name, authorization, code) => {
    const sandbox = createTestSandbox();
    const res = await sandbox.app.request('/v3/auth/token', {
      method: 'POST',
      headers: authorization ? { authorization } : {},
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(await res.json()).toMatchObject({ status: 401, code });
  });
});

describe('bearer authentication', () => {
  it('accepts a fresh token and rejects it once the partner clock passes exp', async () => {
    const sandbox = createTestSandbox();
    const token = await sandbox.token();
    expect((await sandbox.request('GET', '/v3/auth/credentials', { token })).status).toBe(200);
    await sandbox.json('POST', '/v3/sandbox/clock/advance', { token, body: { by: '59m' } });
    expect((await sandbox.request('GET', '/v3/auth/credentials', { token })).status).toBe(200);
    await sandbox.json('POST', '/v3/sandbox/clock/advance', { token, body: { by: '60s' } });
    const expired = await sandbox.json('GET', '/v3/auth/credentials', { token });
    expect(expired.status).toBe(401);
    expect(expired.body).toMatchObject({ code: 'token_expired' });
  });

  it('rejects missing, malformed, forged and none-algorithm tokens', async () => {
    const sandbox = createTestSandbox();
    const good = await sandbox.token();
    const [header, payload] = good.slice('svc_at_'.length).split('.') as [string, string];
    const forgedPayload = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), partner: 'ptn_other' }),
    ).toString('base64url');
    const noneHeader = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const cases: [string | undefined, string][] = [
      [undefined, 'authentication_required'],
      ['Token abc', 'invalid_token'],
      ['Bearer not-a-jwt', 'invalid_token'],
      [`Bearer ${good.slice('svc_at_'.length)}`, 'invalid_token'],
      [`Bearer svc_at_${header}.${forgedPayload}.${good.split('.')[2]}`, 'invalid_token'],
      [`Bearer svc_at_${noneHeader}.${payload}.`, 'invalid_token'],
      [`Bearer svc_at_${noneHeader}.${payload}`, 'invalid_token'],
    ];
    for (const [authorization, code] of cases) {
      const res = await sandbox.app.request('/v3/auth/credentials', {
        headers: authorization ? { authorization } : {},
      });
      expect(res.status, authorization).toBe(401);
      expect(await res.json()).toMatchObject({ code });
    }
  });
});

describe('credentials', () => {
  it('creates a credential whose secret is shown once, lists it without secret, revokes it', async () => {
    const sandbox = createTestSandbox();
    const created = await sandbox.json<Record<string, string>>('POST', '/v3/auth/credentials', {
      body: { name: 'billing-service' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      client_id: expect.stringMatching(/^cid_[0-9a-f]{32}$/),
      client_secret: expect.stringMatching(/^svc_cs_test_/),
      name: 'billing-service',
      status: 'active',
      created_at: '2026-03-02T12:00:00.000Z',
    });
    const clientId = created.body.client_id as string;
    const secret = created.body.client_secret as string;
    const newToken = await sandbox.token(clientId, secret);

    const list = await sandbox.json<{ data: Record<string, unknown>[]; has_more: boolean }>(
      'GET',
      '/v3/auth/credentials',
    );
    expect(list.status).toBe(200);
    expect(list.body.has_more).toBe(false);
    expect(list.body.data.map((c) => c.client_id)).toEqual([clientId, 'cid_sandbox_default']);
    expect(JSON.stringify(list.body)).not.toContain('secret');
    expect(list.body.data[0]).toEqual({
      client_id: clientId,
      name: 'billing-service',
      status: 'active',
      created_at: '2026-03-02T12:00:00.000Z',
      revoked_at: null,
    });

    await sandbox.json('POST', '/v3/sandbox/clock/advance', { body: { by: '10m' } });
    const revoked = await sandbox.json('DELETE', `/v3/auth/credentials/${clientId}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({
      client_id: clientId,
      status: 'revoked',
      revoked_at: '2026-03-02T12:10:00.000Z',
    });

    // No new token with it, but the token issued before stays valid until exp.
    await expect(sandbox.token(clientId, secret)).rejects.toThrow(/401/);
    expect((await sandbox.request('GET', '/v3/auth/credentials', { token: newToken })).status).toBe(200);
    await sandbox.json('POST', '/v3/sandbox/clock/advance', { body: { by: '50m' } });
    expect((await sandbox.request('GET', '/v3/auth/credentials', { token: newToken })).status).toBe(401);

    // DELETE again is idempotent.
    const again = await sandbox.json('DELETE', `/v3/auth/credentials/${clientId}`, {
      token: await sandbox.token(),
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: 'revoked', revoked_at: '2026-03-02T12:10:00.000Z' });
  });

  it("keeps a revoked credential's token valid for everything until it expires, credential management included", async () => {
    const sandbox = createTestSandbox();
    const revoked = await sandbox.json<Record<string, string>>('POST', '/v3/auth/credentials', {
      body: { name: 'revoked' },
    });
    const earlierToken = await sandbox.token(revoked.body.client_id, revoked.body.client_secret);
    const bystander = await sandbox.json<Record<string, string>>('POST', '/v3/auth/credentials', {
      body: { name: 'bystander' },
    });
    expect((await sandbox.request('DELETE', `/v3/auth/credentials/${revoked.body.client_id}`)).status).toBe(
      200,
    );
    // No new token with it …
    await expect(sandbox.token(revoked.body.client_id, revoked.body.client_secret)).rejects.toThrow(/401/);

    // … but the token issued before works for every operation (spec: "tokens already issued stay
    // valid until they expire"), creating and revoking credentials too.
    const minted = await sandbox.json<Record<string, string>>('POST', '/v3/auth/credentials', {
      body: { name: 'made-after-revocation' },
      headers: { 'Idempotency-Key': 'mint' },
      token: earlierToken,
    });
    expect(minted.status).toBe(201);
    expect(minted.body).toMatchObject({ name: 'made-after-revocation', status: 'active' });
    expect(minted.body.client_secret).toMatch(/^svc_cs_test_/);
    const revokeOther = await sandbox.json('DELETE', `/v3/auth/credentials/${bystander.body.client_id}`, {
      token: earlierToken,
    });
    expect(revokeOther.status).toBe(200);
    expect(revokeOther.body).toMatchObject({ status: 'revoked' });
    expect((await sandbox.request('GET', '/v3/customers', { token: earlierToken })).status).toBe(200);

    // Until exp: an hour of the partner clock later it answers 401.
    await sandbox.json('POST', '/v3/sandbox/clock/advance', { body: { by: '1h' } });
    const expired = await sandbox.json('POST', '/v3/auth/credentials', {
      body: { name: 'too-late' },
      token: earlierToken,
    });
    expect(expired.status).toBe(401);
    expect(expired.body).toMatchObject({ code: 'token_expired' });
  });

  it('answers 400 for a missing name and 404 for an unknown client_id', async () => {
    const sandbox = createTestSandbox();
    const missing = await sandbox.json('POST', '/v3/auth/credentials', { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      code: 'validation_failed',
      param: 'name',
      errors: [{ param: 'name' }],
    });
    const unknown = await sandbox.json('DELETE', '/v3/auth/credentials/cid_unknown');
    expect(unknown.status).toBe(404);
  });
});

describe('partners', () => {
  it("isolates partners: another partner's credential answers 404 and lists never cross", async () => {
    const sandbox = createTestSandbox();
    const other = await newPartnerToken(sandbox);
    const mine = await sandbox.json<Record<string, string>>('POST', '/v3/auth/credentials', {
      body: { name: 'mine' },
    });
    const theirs = await sandbox.json('DELETE', `/v3/auth/credentials/${mine.body.client_id}`, {
      token: other.token,
    });
    expect(theirs.status).toBe(404);
    const list = await sandbox.json<{ data: { client_id: string }[] }>('GET', '/v3/auth/credentials', {
      token: other.token,
    });
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]?.client_id).not.toBe(mine.body.client_id);
  });

  it('gives each partner its own clock', async () => {
    const sandbox = createTestSandbox();
    const other = await newPartnerToken(sandbox);
    await sandbox.json('POST', '/v3/sandbox/clock/advance', { body: { by: '3d' } });
    const mine = await sandbox.json<{ now: string }>('GET', '/v3/sandbox/clock');
    const theirs = await sandbox.json<{ now: string }>('GET', '/v3/sandbox/clock', { token: other.token });
    expect(Date.parse(mine.body.now) - Date.parse(theirs.body.now)).toBe(3 * DAY);
  });
});
