import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../domain/errors.js';
import type { AppEnv } from '../http/env.js';
import type { Cluster } from './cluster.js';
import { type Forwarder, OwnerUnreachableError } from './forward.js';
import { clusterMiddleware } from './middleware.js';
import type { RequestPartners } from './request-partner.js';

// A partner another instance holds; that owner dies while answering the first forward (the
// connection reset after the request went out), and the next forward gets an answer.
function fleet(firstFailure: Error, ready = true) {
  const forwards: string[] = [];
  const cluster = {
    ready,
    claim: async () => ({ mine: false, ownerUrl: 'http://owner.test' }),
    serves: () => false,
    storageError: (error: unknown) => error,
  } as unknown as Cluster;
  const partners = {
    of: () => 'ptn_elsewhere',
    ofClient: async () => undefined,
  } as unknown as RequestPartners;
  const forwarder = {
    forward: async (request: Request) => {
      forwards.push(request.method);
      if (forwards.length === 1) throw firstFailure;
      return new Response('{"id":"cust_1"}', { status: 201 });
    },
  } as unknown as Forwarder;
  const app = new Hono<AppEnv>();
  app.use('*', clusterMiddleware(cluster, partners, forwarder, 2_000));
  app.all('*', (c) => c.text('handled here', 200));
  app.onError((error) =>
    Response.json({ code: error instanceof ApiError ? error.code : 'other' }, { status: 503 }),
  );
  return { app, forwards, cluster };
}

const reset = () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });

describe('forwarding to an owner that dies while answering', () => {
  it('sends a write under an Idempotency-Key again, to whichever instance owns the partner next', async () => {
    const { app, forwards } = fleet(reset());
    const res = await app.request('/v3/customers', {
      method: 'POST',
      headers: { 'idempotency-key': 'order-1', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(201);
    expect(forwards).toEqual(['POST', 'POST']);
  });

  it('sends a read again', async () => {
    const { app, forwards } = fleet(reset());
    expect((await app.request('/v3/customers')).status).toBe(201);
    expect(forwards).toEqual(['GET', 'GET']);
  });

  it('does not send a write without a key again: it may have been applied, the client decides', async () => {
    const { app, forwards } = fleet(reset());
    const res = await app.request('/v3/customers', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ code: 'instance_unavailable' });
    expect(forwards).toEqual(['POST']);
  });

  it('waits for a refused connection whatever the request (nothing was sent)', async () => {
    const { app, forwards } = fleet(new OwnerUnreachableError('http://owner.test'));
    const res = await app.request('/v3/customers', { method: 'POST', body: '{}' });
    expect(res.status).toBe(201);
    expect(forwards).toEqual(['POST', 'POST']);
  });
});

describe('an instance that listens before shared mode has started', () => {
  it('answers 503 with Retry-After to the API and "starting" to /healthz, then serves', async () => {
    const { app, forwards, cluster } = fleet(reset(), false);
    const early = await app.request('/v3/auth/token', { method: 'POST' });
    expect([early.status, await early.json()]).toEqual([503, { code: 'instance_unavailable' }]);
    const health = await app.request('/healthz');
    expect([health.status, health.headers.get('retry-after'), await health.json()]).toEqual([
      503,
      '1',
      { status: 'starting' },
    ]);
    expect(forwards).toEqual([]);
    cluster.ready = true;
    expect((await app.request('/v3/customers')).status).toBe(201);
    expect(forwards).toEqual(['GET', 'GET']);
  });
});
