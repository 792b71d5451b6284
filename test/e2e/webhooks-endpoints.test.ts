import { describe, expect, it } from 'vitest';
import { ALL_EVENT_PATTERNS } from '../../src/engine/event-types.js';
import { createTestSandbox, newPartnerToken } from '../support/sandbox.js';
import { createEndpoint, type EndpointBody, webhookSandbox } from '../support/webhooks.js';

const NOW = '2026-03-02T12:00:00.000Z';

describe('POST /v3/webhooks/endpoints', () => {
  it('creates an endpoint with a whsec_ secret shown only on creation', async () => {
    const sandbox = webhookSandbox();
    const created = await sandbox.json<EndpointBody>('POST', '/v3/webhooks/endpoints', {
      body: { url: 'https://partner.example.com/hooks', events: ['loan.*'], description: 'prod' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^we_[0-9a-f]{32}$/),
      url: 'https://partner.example.com/hooks',
      events: ['loan.*'],
      description: 'prod',
      status: 'active',
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
      created_at: NOW,
      updated_at: NOW,
    });
    // 24 random bytes behind the prefix.
    expect(Buffer.from(created.body.secret?.slice(6) ?? '', 'base64')).toHaveLength(24);

    const shown = await sandbox.json<EndpointBody>('GET', `/v3/webhooks/endpoints/${created.body.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({ ...created.body, secret: undefined });
    expect(JSON.stringify(shown.body)).not.toContain('whsec_');
    const listed = await sandbox.json('GET', '/v3/webhooks/endpoints');
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');
  });

  it('defaults events to [] (every event) and description to ""', async () => {
    const sandbox = webhookSandbox();
    const created = await createEndpoint(sandbox, { url: 'https://a.example.com' });
    expect(created).toMatchObject({ events: [], description: '' });
  });

  it('gives each endpoint its own secret', async () => {
    const sandbox = webhookSandbox();
    const a = await createEndpoint(sandbox, { url: 'https://a.example.com' });
    const b = await createEndpoint(sandbox, { url: 'https://b.example.com' });
    expect(a.secret).not.toBe(b.secret);
  });

  it('replays the first response (same secret) for the same Idempotency-Key', async () => {
    const sandbox = webhookSandbox();
    const send = () =>
      sandbox.json<EndpointBody>('POST', '/v3/webhooks/endpoints', {
        body: { url: 'https://a.example.com' },
        headers: { 'Idempotency-Key': 'create-1' },
      });
    const first = await send();
    const second = await send();
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    const list = await sandbox.json<{ data: unknown[] }>('GET', '/v3/webhooks/endpoints');
    expect(list.body.data).toHaveLength(1);
  });

  it('accepts *, <resource>.* and exact names, dropping duplicates', async () => {
    const sandbox = webhookSandbox();
    const created = await createEndpoint(sandbox, {
      url: 'https://a.example.com',
      events: ['*', 'customer.*', 'credit_offer.*', 'loan.*', 'loan.active', 'loan.active'],
    });
    expect(created.events).toEqual(['*', 'customer.*', 'credit_offer.*', 'loan.*', 'loan.active']);
  });

  it('refuses unknown event names and patterns with 422 listing each and the valid patterns', async () => {
    const sandbox = webhookSandbox();
    const res = await sandbox.json<{ code: string; detail: string; param: string; errors: unknown[] }>(
      'POST',
      '/v3/webhooks/endpoints',
      {
        body: { url: 'https://a.example.com', events: ['loan.active', 'customer.deleted', 'foo.*', 'loan'] },
      },
    );
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('unknown_event_pattern');
    expect(res.body.param).toBe('events.1');
    expect(res.body.errors).toEqual([
      { param: 'events.1', detail: 'unknown event pattern "customer.deleted"', code: 'unknown_event' },
      { param: 'events.2', detail: 'unknown event pattern "foo.*"', code: 'unknown_event' },
      { param: 'events.3', detail: 'unknown event pattern "loan"', code: 'unknown_event' },
    ]);
    for (const pattern of ALL_EVENT_PATTERNS) expect(res.body.detail).toContain(pattern);
  });

  it('answers 400 for a missing url, a non-string event and an unparseable url', async () => {
    const sandbox = webhookSandbox();
    const missing = await sandbox.json('POST', '/v3/webhooks/endpoints', { body: { events: [] } });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'validation_failed', param: 'url' });
    const badType = await sandbox.json('POST', '/v3/webhooks/endpoints', {
      body: { url: 'https://a.example.com', events: [3] },
    });
    expect(badType.status).toBe(400);
    expect(badType.body).toMatchObject({ param: 'events.0' });
    const garbage = await sandbox.json('POST', '/v3/webhooks/endpoints', { body: { url: 'not a url' } });
    expect(garbage.status).toBe(400);
    expect(garbage.body).toMatchObject({ code: 'validation_failed', param: 'url' });
  });
});

describe('webhook URL rules', () => {
  it.each([
    'https://partner.example.com/hooks',
    'https://203.0.113.7:8443/x',
    'http://localhost:3000/hooks',
    'http://LOCALHOST/hooks',
    'http://127.0.0.1:9999/hooks',
    'http://127.20.30.40/hooks',
    'http://[::1]:8080/hooks',
  ])('accepts %s', async (url) => {
    const sandbox = webhookSandbox();
    expect((await createEndpoint(sandbox, { url })).url).toBe(url);
  });

  it.each([
    ['http://partner.example.com/hooks', 'partner.example.com'],
    ['http://host.docker.internal:4000/hooks', 'host.docker.internal'],
    ['http://10.0.0.5/hooks', '10.0.0.5'],
    ['http://128.0.0.1/hooks', '128.0.0.1'],
  ])('refuses plain http to %s with 422 saying how to allow it', async (url, host) => {
    const sandbox = webhookSandbox();
    const res = await sandbox.json<{ code: string; detail: string; param: string }>(
      'POST',
      '/v3/webhooks/endpoints',
      { body: { url } },
    );
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('webhook_url_not_allowed');
    expect(res.body.param).toBe('url');
    expect(res.body.detail).toContain(`--webhook-http-hosts ${host}`);
  });

  it('refuses other schemes', async () => {
    const sandbox = webhookSandbox();
    const res = await sandbox.json('POST', '/v3/webhooks/endpoints', {
      body: { url: 'ftp://example.com/x' },
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'webhook_url_not_allowed' });
  });

  it('allows http to hosts named in --webhook-http-hosts (config webhookHttpHosts)', async () => {
    const sandbox = webhookSandbox({ webhookHttpHosts: ['host.docker.internal', 'App'] });
    expect((await createEndpoint(sandbox, { url: 'http://host.docker.internal:4000/h' })).status).toBe(
      'active',
    );
    expect((await createEndpoint(sandbox, { url: 'http://app/h' })).status).toBe('active');
    const other = await sandbox.json('POST', '/v3/webhooks/endpoints', { body: { url: 'http://other/h' } });
    expect(other.status).toBe(422);
  });

  it('applies the same rules to PATCH url', async () => {
    const sandbox = webhookSandbox();
    const ep = await createEndpoint(sandbox, { url: 'https://a.example.com' });
    const bad = await sandbox.json('PATCH', `/v3/webhooks/endpoints/${ep.id}`, {
      body: { url: 'http://a.example.com' },
    });
    expect(bad.status).toBe(422);
    const unchanged = await sandbox.json<EndpointBody>('GET', `/v3/webhooks/endpoints/${ep.id}`);
    expect(unchanged.body.url).toBe('https://a.example.com');
  });
});

describe('GET /v3/webhooks/endpoints', () => {
  it('lists newest first in the standard envelope, paginated with limit and starting_after', async () => {
    const sandbox = webhookSandbox();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await createEndpoint(sandbox, { url: `https://e${i}.example.com` })).id);
      await sandbox.json('POST', '/v3/sandbox/clock/advance', { body: { by: '1s' } });
    }
    const newestFirst = [...ids].reverse();
    const page1 = await sandbox.json<{ data: EndpointBody[]; has_more: boolean }>(
      'GET',
      '/v3/webhooks/endpoints?limit=2',
    );
    expect(page1.body.data.map((e) => e.id)).toEqual(newestFirst.slice(0, 2));
    expect(page1.body.has_more).toBe(true);
    const page2 = await sandbox.json<{ data: EndpointBody[]; has_more: boolean }>(
      'GET',
      `/v3/webhooks/endpoints?limit=2&starting_after=${newestFirst[1]}`,
    );
    expect(page2.body.data.map((e) => e.id)).toEqual(newestFirst.slice(2, 4));
    const page3 = await sandbox.json<{ data: EndpointBody[]; has_more: boolean }>(
      'GET',
      `/v3/webhooks/endpoints?limit=2&starting_after=${newestFirst[3]}`,
    );
    expect(page3.body).toEqual({ data: [expect.objectContaining({ id: newestFirst[4] })], has_more: false });
    const bad = await sandbox.json('GET', '/v3/webhooks/endpoints?starting_after=we_nope');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'invalid_cursor', param: 'starting_after' });
  });

  it('answers an empty envelope and never shows another partner’s endpoints (404 by id)', async () => {
    const sandbox = createTestSandbox();
    const other = await newPartnerToken(sandbox);
    expect((await sandbox.json('GET', '/v3/webhooks/endpoints')).body).toEqual({ data: [], has_more: false });
    const mine = await createEndpoint(sandbox, { url: 'https://a.example.com' });
    const theirs = await sandbox.json<{ data: unknown[] }>('GET', '/v3/webhooks/endpoints', {
      token: other.token,
    });
    expect(theirs.body.data).toEqual([]);
    for (const [method, path] of [
      ['GET', `/v3/webhooks/endpoints/${mine.id}`],
      ['PATCH', `/v3/webhooks/endpoints/${mine.id}`],
      ['DELETE', `/v3/webhooks/endpoints/${mine.id}`],
      ['POST', `/v3/webhooks/endpoints/${mine.id}/secret/rotate`],
    ] as const) {
      const res = await sandbox.json(method, path, {
        token: other.token,
        body: method === 'PATCH' ? {} : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
  });
});

describe('PATCH /v3/webhooks/endpoints/{id}', () => {
  it('updates only the submitted fields and moves status active <-> disabled', async () => {
    const sandbox = webhookSandbox();
    const ep = await createEndpoint(sandbox, {
      url: 'https://a.example.com',
      events: ['loan.*'],
      description: 'one',
    });
    await sandbox.json('POST', '/v3/sandbox/clock/advance', { body: { by: '1m' } });
    const patched = await sandbox.json<EndpointBody>('PATCH', `/v3/webhooks/endpoints/${ep.id}`, {
      body: { description: 'two', status: 'disabled' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({
      id: ep.id,
      url: 'https://a.example.com',
      events: ['loan.*'],
      description: 'two',
      status: 'disabled',
      created_at: NOW,
      updated_at: '2026-03-02T12:01:00.000Z',
    });
    const enabled = await sandbox.json<EndpointBody>('PATCH', `/v3/webhooks/endpoints/${ep.id}`, {
      body: { status: 'active', events: [], url: 'https://b.example.com' },
    });
    expect(enabled.body).toMatchObject({ status: 'active', events: [], url: 'https://b.example.com' });
    // Setting the status it already has is a no-op, not an error.
    const again = await sandbox.json('PATCH', `/v3/webhooks/endpoints/${ep.id}`, {
      body: { status: 'active' },
    });
    expect(again.status).toBe(200);
  });

  it('refuses unknown status (400) and unknown events (422)', async () => {
    const sandbox = webhookSandbox();
    const ep = await createEndpoint(sandbox, { url: 'https://a.example.com' });
    const badStatus = await sandbox.json('PATCH', `/v3/webhooks/endpoints/${ep.id}`, {
      body: { status: 'paused' },
    });
    expect(badStatus.status).toBe(400);
    expect(badStatus.body).toMatchObject({ param: 'status' });
    const badEvents = await sandbox.json('PATCH', `/v3/webhooks/endpoints/${ep.id}`, {
      body: { events: ['loan.exploded'] },
    });
    expect(badEvents.status).toBe(422);
    expect(badEvents.body).toMatchObject({ code: 'unknown_event_pattern', param: 'events.0' });
  });
});

describe('DELETE /v3/webhooks/endpoints/{id}', () => {
  it('answers {id, deleted: true}; the endpoint is gone afterwards (404)', async () => {
    const sandbox = webhookSandbox();
    const ep = await createEndpoint(sandbox, { url: 'https://a.example.com' });
    const deleted = await sandbox.json('DELETE', `/v3/webhooks/endpoints/${ep.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: ep.id, deleted: true });
    expect((await sandbox.json('GET', `/v3/webhooks/endpoints/${ep.id}`)).status).toBe(404);
    expect((await sandbox.json('DELETE', `/v3/webhooks/endpoints/${ep.id}`)).status).toBe(404);
  });
});

describe('POST /v3/webhooks/endpoints/{id}/secret/rotate', () => {
  it('returns a new secret and previous_secret_expires_at = now + 3600 s by default (no body)', async () => {
    const sandbox = webhookSandbox();
    const ep = await createEndpoint(sandbox, { url: 'https://a.example.com' });
    const rotated = await sandbox.json<{ id: string; secret: string; previous_secret_expires_at: string }>(
      'POST',
      `/v3/webhooks/endpoints/${ep.id}/secret/rotate`,
    );
    expect(rotated.status).toBe(200);
    expect(rotated.body).toEqual({
      id: ep.id,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
      previous_secret_expires_at: '2026-03-02T13:00:00.000Z',
    });
    expect(rotated.body.secret).not.toBe(ep.secret);
  });

  it('honours expire_current_in on the partner clock and refuses negative or non-integer values', async () => {
    const sandbox = webhookSandbox();
    const ep = await createEndpoint(sandbox, { url: 'https://a.example.com' });
    await sandbox.json('POST', '/v3/sandbox/clock/advance', { body: { by: '2d' } });
    const rotated = await sandbox.json('POST', `/v3/webhooks/endpoints/${ep.id}/secret/rotate`, {
      body: { expire_current_in: 90 },
    });
    expect(rotated.body).toMatchObject({ previous_secret_expires_at: '2026-03-04T12:01:30.000Z' });
    const zero = await sandbox.json('POST', `/v3/webhooks/endpoints/${ep.id}/secret/rotate`, {
      body: { expire_current_in: 0 },
    });
    expect(zero.body).toMatchObject({ previous_secret_expires_at: '2026-03-04T12:00:00.000Z' });
    for (const value of [-1, 1.5, '60']) {
      const bad = await sandbox.json('POST', `/v3/webhooks/endpoints/${ep.id}/secret/rotate`, {
        body: { expire_current_in: value },
      });
      expect(bad.status, String(value)).toBe(400);
      expect(bad.body).toMatchObject({ param: 'expire_current_in' });
    }
  });

  it('replays the same new secret for the same Idempotency-Key', async () => {
    const sandbox = webhookSandbox();
    const ep = await createEndpoint(sandbox, { url: 'https://a.example.com' });
    const rotate = () =>
      sandbox.json<{ secret: string }>('POST', `/v3/webhooks/endpoints/${ep.id}/secret/rotate`, {
        body: {},
        headers: { 'Idempotency-Key': 'rot-1' },
      });
    const first = await rotate();
    const second = await rotate();
    expect(second.body.secret).toBe(first.body.secret);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
  });
});
