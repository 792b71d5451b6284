import type { OpenAPIHono } from '@hono/zod-openapi';
import { createApp } from '../../src/app.js';
import { createDeps } from '../../src/deps.js';
import {
  DEFAULT_CLIENT_ID,
  DEFAULT_CLIENT_SECRET,
  ensureDefaultPartner,
} from '../../src/domain/default-partner.js';
import { type AppConfig, type AppDeps, DEFAULT_CONFIG, type Logger } from '../../src/http/deps.js';
import type { AppEnv } from '../../src/http/env.js';
import { sequentialIds } from '../../src/lib/ids.js';
import type { RandomSource } from '../../src/lib/random.js';
import { redactJsonText } from '../../src/lib/redact.js';
import { memoryPersistence, type Persistence } from '../../src/store/persistence.js';
import { Store } from '../../src/store/store.js';
import type { WebhookSender } from '../../src/webhooks/sender.js';
import { type PartnerClient, partnerClient } from './partner-client.js';
import { seededRandom } from './seeded-random.js';
import { checkWebhookBody, warmWebhookSchemas } from './webhook-schema.js';

export { basic, type JsonResult, type RequestOptions } from './partner-client.js';

/** Real time as the tests see it: starts at a fixed instant and moves only when told. */
export class FakeRealTime {
  constructor(public ms = Date.parse('2026-03-02T12:00:00.000Z')) {}
  now = (): number => this.ms;
  tick(ms: number): void {
    this.ms += ms;
  }
}

export interface TestSandbox extends PartnerClient {
  app: OpenAPIHono<AppEnv>;
  deps: AppDeps;
  realTime: FakeRealTime;
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
    /** Where the sandbox logs (default: errors printed, info dropped). */
    log?: Logger;
  } = {},
): TestSandbox {
  const realTime = new FakeRealTime();
  const deps: AppDeps = createDeps({
    store:
      options.store ??
      new Store(Buffer.alloc(32, 7).toString('base64url'), { showRequestAnswer: redactJsonText }),
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
    log: options.log ?? { info: () => {}, error: (message, error) => console.error(message, error) },
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
  return { app, deps, realTime, ...partnerClient((path, init) => app.request(path, init)) };
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
