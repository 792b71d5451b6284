import { randomBytes } from 'node:crypto';
import { DEFAULT_PARTNER_ID } from '../../src/domain/default-partner.js';
import type { EventType } from '../../src/engine/event-types.js';
import type { AppConfig } from '../../src/http/deps.js';
import type { Persistence } from '../../src/store/persistence.js';
import type { EventRecord, JsonObject } from '../../src/store/records.js';
import type { Store } from '../../src/store/store.js';
import { sampleEventData } from './event-samples.js';
import { createTestSandbox, type TestSandbox } from './sandbox.js';
import { WAIT_LIMIT_MS } from './time-limits.js';

/**
 * A test sandbox for webhook flows: real random secrets (so a rotation really changes the key) and
 * "real time" pinned to the actual time, so receivers' 5-minute timestamp tolerance passes.
 * The partner clock stays frozen and moves only by advance. An attempt's own limit is a hang
 * detector here (a starved test thread runs a 10 s timer before it reads a prompt answer); the
 * tests of that limit set theirs.
 */
export function webhookSandbox(
  config: Partial<AppConfig> = {},
  store?: Store,
  persistence?: Persistence,
): TestSandbox {
  const sandbox = createTestSandbox(
    { webhookTimeoutMs: WAIT_LIMIT_MS, ...config },
    { randomBytes: (size) => randomBytes(size), store, persistence },
  );
  sandbox.realTime.ms = Date.now();
  return sandbox;
}

/** Appends an event to a partner's log as a domain module would (test-only shortcut). */
export function emitEvent(
  sandbox: TestSandbox,
  type: EventType,
  data: JsonObject = {},
  partnerId = DEFAULT_PARTNER_ID,
): EventRecord {
  const engine = sandbox.deps.engine;
  // A realistic body for the type (deliveries are validated against the OpenAPI document).
  return engine.emit(partnerId, engine.clock(partnerId), type, { ...sampleEventData(type), ...data });
}

export interface EndpointBody {
  id: string;
  url: string;
  events: string[];
  description: string;
  status: 'active' | 'disabled';
  secret?: string;
  created_at: string;
  updated_at: string;
}

export interface AttemptBody {
  attempt_number: number;
  attempted_at: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  next_attempt_at: string | null;
}

export interface DeliveryBody {
  id: string;
  event_id: string;
  event_type: string;
  endpoint_id: string;
  trigger: 'event' | 'redeliver' | 'duplicate';
  status: string;
  next_attempt_at: string | null;
  attempts: AttemptBody[];
  created_at: string;
  updated_at: string;
}

/** Creates an endpoint through the API and returns it with its secret. */
export async function createEndpoint(
  sandbox: TestSandbox,
  body: Record<string, unknown>,
  token?: string,
): Promise<EndpointBody & { secret: string }> {
  const res = await sandbox.json<EndpointBody & { secret: string }>('POST', '/v3/webhooks/endpoints', {
    body,
    token,
  });
  if (res.status !== 201)
    throw new Error(`endpoint creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The delivery log (newest first), optionally filtered by a query string. */
export async function deliveries(sandbox: TestSandbox, query = ''): Promise<DeliveryBody[]> {
  const res = await sandbox.json<{ data: DeliveryBody[] }>('GET', `/v3/sandbox/deliveries?limit=100${query}`);
  if (res.status !== 200) throw new Error(`delivery log failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export async function advance(sandbox: TestSandbox, by: string): Promise<void> {
  const res = await sandbox.json('POST', '/v3/sandbox/clock/advance', { body: { by } });
  if (res.status !== 200) throw new Error(`advance failed: ${res.status} ${JSON.stringify(res.body)}`);
}
