// Webhook deliveries per second to a local receiver (its own process, loopback) versus a bare
// undici POST loop with the same concurrency and body, in the same run: the real dispatcher alone
// (sign, POST with a timeout, report), and the whole sandbox path (event -> fan-out -> attempt
// job -> dispatcher -> outcome recorded in the store).
import { pathToFileURL } from 'node:url';
import { Agent, request } from 'undici';
import { createDeps } from '../src/deps.js';
import { DEFAULT_PARTNER_ID, ensureDefaultPartner } from '../src/domain/default-partner.js';
import { createPartner } from '../src/domain/partners.js';
import { ALL_EVENT_TYPES, type EventType } from '../src/engine/event-types.js';
import { DEFAULT_CONFIG } from '../src/http/deps.js';
import { cryptoRandomBytes, randomIds } from '../src/lib/ids.js';
import { memoryPersistence } from '../src/store/persistence.js';
import { Store } from '../src/store/store.js';
import type { PreparedAttempt } from '../src/webhooks/attempts.js';
import {
  DEFAULT_CONCURRENCY,
  DEFAULT_PARTNER_CONCURRENCY,
  WebhookDispatcher,
} from '../src/webhooks/dispatcher.js';
import { createEndpoint } from '../src/webhooks/endpoints.js';
import { createUndiciSender } from '../src/webhooks/sender.js';
import { formatNumber, median, startChild } from './support.js';

const DELIVERIES = 5_000;
const ROUNDS = 3;
const TARGET_RATIO = 0.4;
const TARGET_FULL_RATIO = 0.2;

const DATA = {
  id: 'ln_3f2a0c1d9b8e4f6a7c5d2e1b0a9f8e7d',
  status: 'active',
  customer_id: 'cust_0c1d9b8e4f6a7c5d2e1b0a9f8e7d3f2a',
  credit_offer_id: 'co_9b8e4f6a7c5d2e1b0a9f8e7d3f2a0c1d',
  requested_amount: '10000.00',
  net_amount: '9794.63',
  installments: 12,
  installments_value: '945.60',
};
const BODY = JSON.stringify({ type: 'loan.active', timestamp: '2026-03-02T12:00:00.000Z', data: DATA });

/** A plain loop: DEFAULT_CONCURRENCY workers POSTing the same body with undici. Deliveries/s. */
async function plainLoop(url: string, count: number): Promise<number> {
  const agent = new Agent({ connections: null, keepAliveTimeout: 4_000 });
  let next = 0;
  let ok = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count) {
      next++;
      const res = await request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: BODY,
        dispatcher: agent,
      });
      await res.body.dump();
      if (res.statusCode >= 200 && res.statusCode < 300) ok++;
    }
  };
  await Promise.all(Array.from({ length: DEFAULT_CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  await agent.close();
  if (ok !== count) throw new Error(`plain loop: ${ok} of ${count} succeeded`);
  return count / seconds;
}

/** The dispatcher alone over prepared attempts: sign, POST through the undici sender, report. */
async function dispatcherOnly(url: string, count: number): Promise<number> {
  const sender = createUndiciSender();
  let ok = 0;
  const dispatcher = new WebhookDispatcher({
    send: sender.send,
    record: (_attempt, result) => {
      if (result.statusCode !== null && result.statusCode < 300) ok++;
    },
    realNow: () => Date.now(),
    timeoutMs: 10_000,
    onError: (m, e) => console.error(m, e),
  });
  const secret = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    // Spread over as many endpoints and partners as it takes to fill every slot (one in flight per
    // endpoint, DEFAULT_PARTNER_CONCURRENCY per partner): this measures the sender, not the limits.
    const lane = i % DEFAULT_CONCURRENCY;
    const attempt: PreparedAttempt = {
      partnerId: `ptn_bench_${lane % (DEFAULT_CONCURRENCY / DEFAULT_PARTNER_CONCURRENCY)}`,
      endpointId: `we_${lane}`,
      deliveryId: `dlv_${i}`,
      attemptNumber: 1,
      dueAtMs: 0,
      order: i,
      url,
      msgId: `evt_${i}`,
      payload: BODY,
      secrets: [secret],
    };
    dispatcher.dispatch(attempt);
  }
  await dispatcher.settled();
  const seconds = (performance.now() - started) / 1000;
  await sender.close();
  if (ok !== count) throw new Error(`dispatcher: ${ok} of ${count} succeeded`);
  return count / seconds;
}

/**
 * The sandbox path: `count` events spread over partners with several endpoints each (every event
 * goes to one endpoint of its partner), until every delivery settled. Each endpoint sends one at a
 * time in event order, so the parallelism comes from the endpoints, as it would in real use.
 */
async function sandboxPath(url: string, count: number, lanes = DEFAULT_CONCURRENCY): Promise<number> {
  const deps = createDeps({
    store: new Store('bench'),
    persistence: memoryPersistence,
    ids: randomIds,
    randomBytes: cryptoRandomBytes,
    realNow: () => Date.now(),
    config: { ...DEFAULT_CONFIG, clockMode: 'frozen', rateLimit: 0 },
    log: { info: () => {}, error: (m, e) => console.error(m, e) },
  });
  ensureDefaultPartner(deps, { clientId: 'cid_bench', clientSecret: 'svc_cs_test_bench' }, 'frozen');
  const engine = deps.engine;
  const partners = Math.max(1, Math.ceil(lanes / DEFAULT_PARTNER_CONCURRENCY));
  const perPartner = Math.ceil(lanes / partners);
  const partnerIds = [DEFAULT_PARTNER_ID];
  for (let p = 1; p < partners; p++) {
    partnerIds.push(createPartner(deps, { name: `bench-${p}`, clockMode: 'frozen' }).partner.id);
  }
  for (const partnerId of partnerIds) {
    for (let e = 0; e < perPartner; e++) {
      // Each endpoint subscribes to one event type, so one event reaches exactly one endpoint.
      const events = [ALL_EVENT_TYPES[e % ALL_EVENT_TYPES.length] as string];
      createEndpoint(engine.context(partnerId), { url, events }, { httpHosts: [] });
    }
  }
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const partnerId = partnerIds[i % partners] as string;
    const type = ALL_EVENT_TYPES[
      (Math.floor(i / partners) % perPartner) % ALL_EVENT_TYPES.length
    ] as EventType;
    engine.emit(partnerId, engine.clock(partnerId), type, DATA);
  }
  await deps.webhooks.idle(300_000);
  const seconds = (performance.now() - started) / 1000;
  let succeeded = 0;
  for (const partnerId of partnerIds) {
    succeeded += deps.store.deliveryIdx.byStatus.rows(`${partnerId}|succeeded`).length;
  }
  engine.stop();
  await deps.webhooks.close();
  if (succeeded !== count) throw new Error(`sandbox path: ${succeeded} of ${count} succeeded`);
  return count / seconds;
}

export async function run(): Promise<{ name: string; markdown: string; ok: boolean }> {
  const receiver = await startChild('./servers/webhook-receiver.ts');
  try {
    const url = `http://127.0.0.1:${receiver.port}/hooks`;
    await plainLoop(url, 500); // warm-up (JIT, connections)
    await dispatcherOnly(url, 500);
    await sandboxPath(url, 500);
    const plain: number[] = [];
    const dispatcher: number[] = [];
    const sandbox: number[] = [];
    const single: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      plain.push(await plainLoop(url, DELIVERIES));
      dispatcher.push(await dispatcherOnly(url, DELIVERIES));
      sandbox.push(await sandboxPath(url, DELIVERIES));
      single.push(await sandboxPath(url, DELIVERIES / 5, 1));
    }
    const ratio = median(dispatcher) / median(plain);
    const fullRatio = median(sandbox) / median(plain);
    const markdown = [
      `| sender (${DEFAULT_CONCURRENCY} in flight, ${DELIVERIES.toLocaleString('en-US')} POSTs, median of ${ROUNDS}) | deliveries/s |`,
      '|---|---:|',
      `| plain undici POST loop | ${formatNumber(median(plain))} |`,
      `| the real dispatcher (sign with standardwebhooks, POST with timeout, report outcome) | ${formatNumber(median(dispatcher))} |`,
      `| whole sandbox path: event -> fan-out -> attempt job -> dispatcher -> outcome recorded (${DEFAULT_CONCURRENCY / DEFAULT_PARTNER_CONCURRENCY} partners x ${DEFAULT_PARTNER_CONCURRENCY} endpoints, each endpoint one at a time in event order) | ${formatNumber(median(sandbox))} |`,
      `| the same, all events to one endpoint (strictly one at a time, for information) | ${formatNumber(median(single))} |`,
      '',
      `Ratio dispatcher / plain: **${ratio.toFixed(2)}** (target >= ${TARGET_RATIO}); ` +
        `whole path / plain: **${fullRatio.toFixed(2)}** (target >= ${TARGET_FULL_RATIO}: it also appends the event, ` +
        'creates the delivery and records each outcome, in the same process as the sender).',
    ].join('\n');
    return {
      name: 'Webhook delivery throughput',
      markdown,
      ok: ratio >= TARGET_RATIO && fullRatio >= TARGET_FULL_RATIO,
    };
  } finally {
    receiver.child.kill();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await run();
  console.log(`## ${result.name}\n\n${result.markdown}`);
}
