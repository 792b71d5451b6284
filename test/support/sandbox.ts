import type { OpenAPIHono } from '@hono/zod-openapi';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET, ensureDefaultPartner } from '../../src/default-partner.js';
import { createDeps } from '../../src/deps.js';
import { createApp } from '../../src/http/app.js';
import { type AppConfig, type AppDeps, DEFAULT_CONFIG } from '../../src/http/deps.js';
import type { AppEnv } from '../../src/http/env.js';
import { sequentialIds } from '../../src/lib/ids.js';
import type { RandomSource } from '../../src/lib/random.js';
import { memoryPersistence, type Persistence } from '../../src/store/persistence.js';
import { Store } from '../../src/store/store.js';
import type { WebhookSender } from '../../src/webhooks/sender.js';
import { seededRandom } from './seeded-random.js';
import { checkWebhookBody, warmWebhookSchemas } from './webhook-schema.js';

/** Real time as the tests see it: starts at a fixed instant and moves only when told. */
export class FakeRealTime {
  constructor(public ms = Date.parse('2026-03-02T12:00:00.000Z')) {}
  now = (): number => this.ms;
  tick(ms: number): void {
    this.ms += ms;
  }
}

export interface TestSandbox {
  app: OpenAPIHono<AppEnv>;
  deps: AppDeps;
  realTime: FakeRealTime;
  /** Sends a request with the default partner's (or the given) bearer token. */
  request(method: string, path: string, options?: RequestOptions): Promise<Response>;
  /** Same as request, parsing the JSON body. */
  json<T = Record<string, unknown>>(
    method: string,
    path: string,
    options?: RequestOptions,
  ): Promise<JsonResult<T>>;
  token(clientId?: string, clientSecret?: string): Promise<string>;
}

export interface RequestOptions {
  body?: unknown;
  token?: string | null;
  headers?: Record<string, string>;
}

export interface JsonResult<T> {
  status: number;
  body: T;
  headers: Headers;
}

/** A whole sandbox in memory, driven through `app.request()` (no sockets), clock frozen by default. */
export function createTestSandbox(
  config: Partial<AppConfig> = {},
  options: {
    persistence?: Persistence;
    store?: Store;
    randomBytes?: (size: number) => Buffer;
    /** A restarted sandbox needs ids that do not collide with the restored ones. */
    ids?: (prefix: string) => string;
    /** Replaces the real webhook sender (receivers simulated in-process). */
    webhookSender?: WebhookSender;
    /** Chaos randomness per partner (defaults to the composition root's). */
    random?: RandomSource;
  } = {},
): TestSandbox {
  const realTime = new FakeRealTime();
  const deps: AppDeps = createDeps({
    store: options.store ?? new Store(Buffer.alloc(32, 7).toString('base64url')),
    persistence: options.persistence ?? memoryPersistence,
    ids: options.ids ?? sequentialIds(),
    randomBytes: options.randomBytes ?? ((size) => Buffer.alloc(size, 1)),
    realNow: realTime.now,
    config: {
      ...DEFAULT_CONFIG,
      rateLimit: 0,
      clockMode: 'frozen',
      publicUrl: 'http://sandbox.test',
      ...config,
    },
    log: { info: () => {}, error: (message, error) => console.error(message, error) },
    ...(options.webhookSender ? { webhookSender: validatingSender(options.webhookSender) } : {}),
    // Varied random choices (chaos) although randomBytes above is constant: a fixed seed.
    random: options.random ?? seededRandom(20261123),
  });
  ensureDefaultPartner(
    deps,
    { clientId: DEFAULT_CLIENT_ID, clientSecret: DEFAULT_CLIENT_SECRET },
    deps.config.clockMode,
  );
  const app = createApp(deps);
  let defaultToken: string | undefined;

  const token = async (
    clientId = DEFAULT_CLIENT_ID,
    clientSecret = DEFAULT_CLIENT_SECRET,
  ): Promise<string> => {
    const res = await app.request('/v3/auth/token', {
      method: 'POST',
      headers: { authorization: basic(clientId, clientSecret) },
    });
    if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { access_token: string }).access_token;
  };

  const request = async (method: string, path: string, options: RequestOptions = {}): Promise<Response> => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== null) {
      if (options.token === undefined) defaultToken ??= await token();
      headers.authorization ??= `Bearer ${options.token ?? defaultToken}`;
    }
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await app.request(path, { method, headers, body });
    // The default token expires when a test moves the clock past an hour: refresh it once, as a
    // partner's client would.
    if (res.status === 401 && options.token === undefined) {
      defaultToken = await token();
      headers.authorization = `Bearer ${defaultToken}`;
      return app.request(path, { method, headers, body });
    }
    return res;
  };

  const json = async <T>(method: string, path: string, options?: RequestOptions): Promise<JsonResult<T>> => {
    const res = await request(method, path, options);
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as T };
  };

  return { app, deps, realTime, request, json, token };
}

export function basic(clientId: string, secret: string): string {
  return `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;
}

/** Creates an isolated partner and returns a bearer token for it. */
export async function newPartnerToken(sandbox: TestSandbox): Promise<{ id: string; token: string }> {
  const created = await sandbox.json<{ id: string; client_id: string; client_secret: string }>(
    'POST',
    '/v3/sandbox/partners',
    { body: { name: 'other' } },
  );
  if (created.status !== 201) throw new Error(`partner creation failed: ${JSON.stringify(created.body)}`);
  return {
    id: created.body.id,
    token: await sandbox.token(created.body.client_id, created.body.client_secret),
  };
}

/** An in-process receiver whose bodies are validated like the shared receiver's. */
function validatingSender(send: WebhookSender): WebhookSender {
  warmWebhookSchemas();
  return (webhook) => {
    checkWebhookBody(webhook.body);
    return send(webhook);
  };
}
