// Webhook drain after a burst, one endpoint: N events emitted back to back for one loopback
// receiver (its own process), then the time from the last event to the last delivery received,
// and the sandbox's CPU per delivery over that drain. Two shapes of burst: all N events in one
// synchronous run (one clock advance, one scenario step) and one event per event-loop turn (N API
// calls back to back). Run on its own: `npx tsx bench/webhook-drain.ts` (N=100, ROUNDS=7).
import type { ChildProcess } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { Agent, request } from 'undici';
import { createDeps } from '../src/deps.js';
import { DEFAULT_PARTNER_ID, ensureDefaultPartner } from '../src/domain/default-partner.js';
import { DEFAULT_CONFIG } from '../src/http/deps.js';
import { cryptoRandomBytes, randomIds } from '../src/lib/ids.js';
import { memoryPersistence } from '../src/store/persistence.js';
import { Store } from '../src/store/store.js';
import { createEndpoint } from '../src/webhooks/endpoints.js';
import { median, startChild } from './support.js';

const EVENTS = Number(process.env.N ?? 100);
const ROUNDS = Number(process.env.ROUNDS ?? 7);
const DATA = { id: 'ln_3f2a0c1d9b8e4f6a7c5d2e1b0a9f8e7d', status: 'active', installments: 12 };

interface ReceiverReport {
  received: number;
  lastNs: string;
  cpu: { user: number; system: number };
}

function ask(child: ChildProcess, message: 'reset' | 'report'): Promise<ReceiverReport> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as ReceiverReport));
    child.send(message);
  });
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

interface Drain {
  /** From the last event to the last delivery received. */
  ms: number;
  /** From the first event to the last delivery received. */
  totalMs: number;
  /** Deliveries the receiver had when the last event was emitted. */
  duringBurst: number;
  /** Over the whole burst: emitting the events, the jobs, sending, recording. */
  cpuMicrosPerDelivery: number;
  receiverCpuMicrosPerDelivery: number;
}

type Deps = ReturnType<typeof createDeps>;

/** One sandbox for the whole run, as a server is: one partner (running clock), one endpoint. */
function sandbox(url: string): Deps {
  const deps = createDeps({
    store: new Store('bench'),
    persistence: memoryPersistence,
    ids: randomIds,
    randomBytes: cryptoRandomBytes,
    realNow: () => Date.now(),
    config: { ...DEFAULT_CONFIG, rateLimit: 0 },
    log: { info: () => {}, error: (m, e) => console.error(m, e) },
  });
  ensureDefaultPartner(deps, { clientId: 'cid_bench', clientSecret: 'svc_cs_test_bench' }, 'running');
  createEndpoint(deps.engine.context(DEFAULT_PARTNER_ID), { url }, { httpHosts: [] });
  return deps;
}

async function burst(deps: Deps, receiver: ChildProcess, spread: boolean): Promise<Drain> {
  const engine = deps.engine;
  const before = await ask(receiver, 'reset');
  const firstEventNs = process.hrtime.bigint();
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < EVENTS; i++) {
    if (spread) await nextTurn();
    engine.emit(DEFAULT_PARTNER_ID, engine.clock(DEFAULT_PARTNER_ID), 'loan.active', DATA);
  }
  const lastEventNs = process.hrtime.bigint();
  const duringBurst = spread ? (await ask(receiver, 'report')).received : 0;
  await deps.webhooks.idle(120_000);
  const cpu = process.cpuUsage(cpuBefore);
  const after = await ask(receiver, 'report');
  if (after.received !== EVENTS) throw new Error(`${after.received} of ${EVENTS} deliveries arrived`);
  const receiverCpu = after.cpu.user + after.cpu.system - (before.cpu.user + before.cpu.system);
  return {
    ms: Number(BigInt(after.lastNs) - lastEventNs) / 1e6,
    totalMs: Number(BigInt(after.lastNs) - firstEventNs) / 1e6,
    duringBurst,
    cpuMicrosPerDelivery: (cpu.user + cpu.system) / EVENTS,
    receiverCpuMicrosPerDelivery: receiverCpu / EVENTS,
  };
}

/**
 * The floor for one endpoint that gets one request at a time: a plain undici loop POSTing the
 * same N bodies one after another (no signing, no store), timed from the first send to the last
 * arrival, with its CPU.
 */
async function sequentialFloor(agent: Agent, receiver: ChildProcess, url: string): Promise<Drain> {
  const body = JSON.stringify({ type: 'loan.active', timestamp: new Date().toISOString(), data: DATA });
  const before = await ask(receiver, 'reset');
  const startNs = process.hrtime.bigint();
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < EVENTS; i++) {
    const res = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      dispatcher: agent,
    });
    await res.body.dump();
  }
  const cpu = process.cpuUsage(cpuBefore);
  const after = await ask(receiver, 'report');
  const receiverCpu = after.cpu.user + after.cpu.system - (before.cpu.user + before.cpu.system);
  return {
    ms: Number(BigInt(after.lastNs) - startNs) / 1e6,
    totalMs: Number(BigInt(after.lastNs) - startNs) / 1e6,
    duringBurst: 0,
    cpuMicrosPerDelivery: (cpu.user + cpu.system) / EVENTS,
    receiverCpuMicrosPerDelivery: receiverCpu / EVENTS,
  };
}

function row(label: string, drains: Drain[]): string {
  const ms = drains.map((d) => d.ms);
  return (
    `| ${label} | ${median(ms).toFixed(1)} (${Math.min(...ms).toFixed(1)}–${Math.max(...ms).toFixed(1)}) | ` +
    `${median(drains.map((d) => d.totalMs)).toFixed(1)} | ${median(drains.map((d) => d.duringBurst))} | ` +
    `${median(drains.map((d) => d.cpuMicrosPerDelivery)).toFixed(0)} | ` +
    `${median(drains.map((d) => d.receiverCpuMicrosPerDelivery)).toFixed(0)} |`
  );
}

export async function run(): Promise<{ name: string; markdown: string; ok: boolean }> {
  const receiver = await startChild('./servers/webhook-drain-receiver.ts');
  try {
    const url = `http://127.0.0.1:${receiver.port}/hooks`;
    const deps = sandbox(url);
    await burst(deps, receiver.child, false); // warm-up (JIT, the connection)
    await burst(deps, receiver.child, true);
    const oneTurn: Drain[] = [];
    const spread: Drain[] = [];
    const floor: Drain[] = [];
    const agent = new Agent({ connections: null, keepAliveTimeout: 4_000 });
    await sequentialFloor(agent, receiver.child, url);
    for (let round = 0; round < ROUNDS; round++) {
      oneTurn.push(await burst(deps, receiver.child, false));
      spread.push(await burst(deps, receiver.child, true));
      floor.push(await sequentialFloor(agent, receiver.child, url));
    }
    const markdown = [
      `| burst of ${EVENTS} events, one endpoint, median of ${ROUNDS} | ms from the last event to the last delivery received (min–max) | ms from the first event | received before the last event | sandbox CPU µs per delivery (whole burst) | receiver CPU µs per delivery |`,
      '|---|---:|---:|---:|---:|---:|',
      row('all in one synchronous run', oneTurn),
      row('one event per event-loop turn', spread),
      row(`floor: a plain undici loop, ${EVENTS} POSTs one after another (from the first send)`, floor),
    ].join('\n');
    deps.engine.stop();
    await deps.webhooks.close();
    await agent.close();
    return { name: 'Webhook drain after a burst', markdown, ok: true };
  } finally {
    receiver.child.kill();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await run();
  console.log(`## ${result.name}\n\n${result.markdown}`);
}
