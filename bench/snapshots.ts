// Cost of saving and restoring a named snapshot against the size of the partner: 500 customers
// with 100 active loans, then 1,000 customers with 200 (each loan with its installments, events
// and jobs), and the 1,000 partner again once the store also holds the other one (independent of
// other partners). In-process through the app (auth, validation, the whole route), memory store;
// median of 15 runs each. Then the first save of a partner in a process that never saved a
// snapshot, with the rows measured while the event loop is idle (the default) and without.
// Run: `npm run bench:snapshots`.

import { createApp } from '../src/app.js';
import { createDeps } from '../src/deps.js';
import { ensureDefaultPartner } from '../src/domain/default-partner.js';
import { generateCpf } from '../src/finance/cpf.js';
import { type AppDeps, DEFAULT_CONFIG } from '../src/http/deps.js';
import { sequentialIds } from '../src/lib/ids.js';
import { memoryPersistence } from '../src/store/persistence.js';
import { Store } from '../src/store/store.js';
import { formatNumber, median } from './support.js';

const RUNS = 15;
const TARGET_MS = 50;

interface Sandbox {
  deps: AppDeps;
  call(method: string, path: string, token: string, body?: unknown): Promise<Record<string, unknown>>;
  /**
   * One turn of the event loop, as an HTTP server has between two requests (it reads each from
   * a socket); calls through `app.request` alone would chain on promises and never give the loop
   * a turn, which no client over the network can do.
   */
  idle(): Promise<void>;
}

export function sandbox(options: { measureRowsWhenIdle?: boolean } = {}): Sandbox {
  const now = Date.parse('2026-03-02T12:00:00Z');
  const deps = createDeps({
    store: new Store('bench'),
    persistence: memoryPersistence,
    ids: sequentialIds(),
    randomBytes: (size) => Buffer.alloc(size, 1),
    realNow: () => now,
    config: { ...DEFAULT_CONFIG, clockMode: 'frozen', rateLimit: 0, publicUrl: 'http://bench.test' },
    log: { info: () => {}, error: (m, e) => console.error(m, e) },
    webhookSender: async () => ({ statusCode: 200, retryAfter: null, body: '' }),
    measureRowsWhenIdle: options.measureRowsWhenIdle ?? true,
    // Drains each turn, as a server sees a client that waits for each answer: in process, under
    // tsx, this process never looks idle to the server's default (spare turns only).
    measureRowsDefer: (drain) => setImmediate(drain).unref(),
  });
  ensureDefaultPartner(deps, { clientId: 'cid_bench', clientSecret: 'svc_cs_test_bench' }, 'frozen');
  const app = createApp(deps);
  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await app.request(path, {
      method,
      headers: {
        authorization: token.startsWith('Basic') ? token : `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path} -> ${res.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  const idle = () => new Promise<void>((resolve) => setImmediate(resolve));
  return { deps, call, idle };
}

export async function token(sb: Sandbox, clientId: string, secret: string): Promise<string> {
  const basic = `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;
  return String((await sb.call('POST', '/v3/auth/token', basic)).access_token);
}

/** A partner with `customers` customers, one in five through the happy path to an active loan. */
export async function partner(
  sb: Sandbox,
  admin: string,
  customers: number,
  offset: number,
  options: { saveEmpty: boolean } = { saveEmpty: true },
): Promise<string> {
  const created = await sb.call('POST', '/v3/sandbox/partners', admin, {
    name: `p${customers}`,
    clock: 'frozen',
  });
  let tok = await token(sb, String(created.client_id), String(created.client_secret));
  credentials.set(tok, [String(created.client_id), String(created.client_secret)]);
  // The world before anything: restoring it, then the full one, swaps every row (the worst case).
  if (options.saveEmpty) await sb.call('POST', '/v3/sandbox/snapshots', tok, { name: 'empty' });
  for (let k = 0; k < customers / 5; k++) {
    await sb.idle();
    const run = await sb.call('POST', '/v3/sandbox/scenarios/happy-path/runs', tok, {
      params: { cpf: generateCpf(String(offset + k)) },
    });
    if (run.status !== 'passed') throw new Error(`happy path: ${JSON.stringify(run).slice(0, 300)}`);
    // The scenario moves the clock; a fresh token now and then keeps within its hour.
    if (k % 20 === 19) tok = await token(sb, String(created.client_id), String(created.client_secret));
  }
  for (let k = customers / 5; k < customers; k++) {
    await sb.idle();
    await sb.call('POST', '/v3/customers', tok, {
      cpf: generateCpf(String(offset + k)),
      name: `Customer ${k}`,
    });
  }
  credentials.set(tok, [String(created.client_id), String(created.client_secret)]);
  return tok;
}

/** Each bench partner's credential, by a token of it (restores move the clock, tokens expire). */
const credentials = new Map<string, [string, string]>();

/** Wall and CPU milliseconds of one call (CPU: this process, all threads; immune to a busy machine). */
async function timed(call: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  await call();
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - start, cpu: (used.user + used.system) / 1000 };
}

function medians(samples: { wall: number; cpu: number }[]): { wall: number; cpu: number } {
  return { wall: median(samples.map((s) => s.wall)), cpu: median(samples.map((s) => s.cpu)) };
}

async function measure(sb: Sandbox, first: string, label: string) {
  const [id, secret] = credentials.get(first) as [string, string];
  const fresh = () => token(sb, id, secret);
  let tok = first;
  let saved: Record<string, unknown> = {};
  await sb.idle();
  const firstSave = await timed(async () => {
    saved = await sb.call('POST', '/v3/sandbox/snapshots', tok, { name: label, replace: true });
  });
  const save: { wall: number; cpu: number }[] = [];
  const afterTest: { wall: number; cpu: number }[] = [];
  const swap: { wall: number; cpu: number }[] = [];
  for (let run = 0; run < RUNS; run++) {
    await sb.idle();
    save.push(
      await timed(() => sb.call('POST', '/v3/sandbox/snapshots', tok, { name: label, replace: true })),
    );
    // What a test does between two restores: a customer more and a day of the clock (its jobs run).
    await sb.call('POST', '/v3/customers', tok, {
      cpf: generateCpf(String(900_000_000 + run)),
      name: 'Test',
    });
    await sb.call('POST', '/v3/sandbox/clock/advance', tok, { by: '1d' });
    tok = await fresh();
    await sb.idle();
    afterTest.push(await timed(() => sb.call('POST', `/v3/sandbox/snapshots/${label}/restore`, tok)));
    // The worst case: every row differs (the empty world, then this one).
    await sb.call('POST', '/v3/sandbox/snapshots/empty/restore', tok);
    await sb.idle();
    swap.push(await timed(() => sb.call('POST', `/v3/sandbox/snapshots/${label}/restore`, tok)));
  }
  const counts = saved.counts as Record<string, number>;
  return {
    label,
    firstSave,
    save: medians(save),
    restore: medians(afterTest),
    swap: medians(swap),
    bytes: Number(saved.bytes),
    rows: Object.values(counts).reduce((a, b) => a + b, 0),
  };
}

/**
 * A process that never saved a snapshot: builds the 1,000-customer partner (CPU of the build
 * measured), lets the loop turn once, as the next request would, then times its first save.
 */
async function firstSaveInFreshProcess(measureRowsWhenIdle: boolean) {
  const sb = sandbox({ measureRowsWhenIdle });
  const admin = await token(sb, 'cid_bench', 'svc_cs_test_bench');
  const cpu = process.cpuUsage();
  const tok = await partner(sb, admin, 1000, 300_000_000, { saveEmpty: false });
  await sb.idle();
  const used = process.cpuUsage(cpu);
  const save = await timed(() => sb.call('POST', '/v3/sandbox/snapshots', tok, { name: 'first' }));
  return { buildCpu: (used.user + used.system) / 1000, save };
}

export async function run() {
  const sb = sandbox();
  const admin = await token(sb, 'cid_bench', 'svc_cs_test_bench');
  const large = await partner(sb, admin, 1000, 100_000_000);
  const alone = await measure(sb, large, 'large-alone');
  const half = await partner(sb, admin, 500, 200_000_000);
  const small = await measure(sb, half, 'half');
  const beside = await measure(sb, large, 'large-beside');
  // Alternating, twice each, so that the machine's drift falls on both sides.
  const fresh: { on: Awaited<ReturnType<typeof firstSaveInFreshProcess>>[]; off: typeof fresh.on } = {
    on: [],
    off: [],
  };
  for (let round = 0; round < 2; round++) {
    fresh.on.push(await firstSaveInFreshProcess(true));
    fresh.off.push(await firstSaveInFreshProcess(false));
  }
  const cell = (m: { wall: number; cpu: number }) => `${m.wall.toFixed(1)} / ${m.cpu.toFixed(1)}`;
  const freshCell = (side: typeof fresh.on) =>
    `${cell(medians(side.map((f) => f.save)))} | ${formatNumber(Math.round(median(side.map((f) => f.buildCpu))))}`;
  const rows = [
    ['500 customers, 100 loans', small],
    ['1,000 customers, 200 loans', alone],
    ['1,000 customers, 200 loans, beside the 500 partner', beside],
  ] as const;
  const freshSave = medians(fresh.on.map((f) => f.save));
  const ok =
    alone.save.cpu <= TARGET_MS &&
    alone.restore.cpu <= TARGET_MS &&
    alone.swap.cpu <= TARGET_MS &&
    freshSave.wall <= TARGET_MS;
  const buildRatio = median(fresh.on.map((f) => f.buildCpu)) / median(fresh.off.map((f) => f.buildCpu));
  const markdown = [
    `In-process through the app (auth, validation, the route), memory store, median of ${RUNS} runs; each cell is wall ms / CPU ms of the process (the CPU figure does not count time the machine gave to other processes). "Restore after a test": the partner registered a customer and moved its clock a day (its jobs ran) since the save. "Whole swap": from the empty world, every row differs.`,
    '',
    '| partner | rows | world as JSON | first save | save | restore after a test | whole swap |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      ([name, m]) =>
        `| ${name} | ${formatNumber(m.rows)} | ${(m.bytes / 1024 / 1024).toFixed(1)} MiB | ${cell(m.firstSave)} | ${cell(m.save)} | ${cell(m.restore)} | ${cell(m.swap)} |`,
    ),
    '',
    `Target: save and restore of the 1,000-customer partner <= ${TARGET_MS} ms of CPU — ${ok ? 'met' : 'MISSED'} (save ${alone.save.cpu.toFixed(1)}, restore after a test ${alone.restore.cpu.toFixed(1)}, whole swap ${alone.swap.cpu.toFixed(1)}).`,
    `Size ratio 1,000 / 500 (CPU): rows ${(alone.rows / small.rows).toFixed(2)}, save ${(alone.save.cpu / small.save.cpu).toFixed(2)}, whole swap ${(alone.swap.cpu / small.swap.cpu).toFixed(2)} (linear: about the rows ratio).`,
    `Another partner in the store (CPU): save ${(beside.save.cpu / alone.save.cpu).toFixed(2)}×, restore ${(beside.restore.cpu / alone.restore.cpu).toFixed(2)}×, whole swap ${(beside.swap.cpu / alone.swap.cpu).toFixed(2)}× (independent: about 1).`,
    '',
    'First save of the 1,000-customer partner in a process that never saved a snapshot (built through the API, one event-loop turn between requests as over HTTP; median of 2 alternating builds each):',
    '',
    '| rows measured | first save, wall ms / CPU ms | CPU of the build, ms |',
    '|---|---:|---:|',
    `| while the event loop is idle (default) | ${freshCell(fresh.on)} |`,
    `| by the save (\`measureRowsWhenIdle: false\`) | ${freshCell(fresh.off)} |`,
    '',
    `First save target <= ${TARGET_MS} ms wall: ${freshSave.wall <= TARGET_MS ? 'met' : 'MISSED'} (${freshSave.wall.toFixed(1)} ms). Measuring in idle time costs the build ${((buildRatio - 1) * 100).toFixed(1)}% more CPU.`,
  ].join('\n');
  return { name: 'Snapshot save and restore', markdown, ok };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await run();
  console.log(`## ${result.name}\n\n${result.markdown}`);
}
