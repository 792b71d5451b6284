// Every operation of the OpenAPI document (every GET; every POST, PUT, PATCH and DELETE: the four
// writes the issue names here, the others in bench/write-cases.ts) through the whole sandbox (`serve`'s default flags: access log `pretty` to /dev/null, request inspector at
// 1,000 entries, rate limiter on but out of reach) against a bare Hono app answering the same
// bytes at the same path (bench/servers/bare-operations.ts; a write: it parses the same body and
// answers the same JSON). Interleaved: for each operation, RUNS rounds of ROUND_SECONDS, the side
// that goes first alternating; the ratios are pooled medians of the per-round ratios. Server CPU
// per request (all threads, user + system) is read around each round; bytes allocated per request
// are measured after, with both servers on a young generation large enough that no collection
// runs during a round (rounds with one are discarded).
//
// `npm run bench:operations` (env RUNS=5, ROUND_SECONDS=1, CONSUMED=100; ONLY=GET /loans,POST for
// some): about 25 to 35 minutes on 2 cores. An operation the bench cannot repeat is listed as not
// measured, with the answer it got, and the others go on.
// Prints one markdown table and the machine's load at the start and the end.
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import {
  basicOf,
  call,
  cpfOf,
  loanTerms,
  readPaths,
  type Session,
  seed,
  session,
  writer,
} from '../test/support/operation-data.js';
import type { BareAnswer } from './servers/bare-operations.js';
import { buildDist, childCpuMicros, median, startChild } from './support.js';
import { coveredWrites, writeCases } from './write-cases.js';

const BENCH_BASIC = basicOf('cid_bench', 'svc_cs_test_bench');
const RUNS = Number(process.env.RUNS ?? 5);
/** Only the operations whose label contains one of these (comma-separated), e.g. ONLY=POST,PATCH. */
const ONLY = process.env.ONLY?.split(',').filter(Boolean);
const ROUND_SECONDS = Number(process.env.ROUND_SECONDS ?? 1);
/**
 * Load on each side before its rounds count, per operation: long enough for the JIT to have
 * compiled what the operation runs (the sandbox's CPU per request falls for 3–5 s of load before
 * it levels off; bare Hono's within the first second), so rounds compare steady states.
 */
const WARM_SECONDS = Number(process.env.WARM_SECONDS ?? 3);
const CONNECTIONS = 32;
/** Loans per round: each needs an offer and a simulation of its own, made before the rounds. */
const LOAN_BATCH = Number(process.env.LOAN_BATCH ?? 300);
const ALLOC_REQUESTS = 1000;
const ALLOC_LOANS = 200;
/** Requests per round reading one inspector entry: well under the log's 1,000, so it stays. */
const REQUEST_LOG_ROUND = 600;
const READ_TARGET = 0.85;
const WRITE_TARGET = 0.5;
const CPU_BUDGET = 1.15;

interface Spec {
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** A fresh body per request (a write). */
  body?: () => string | Buffer;
  /** A fresh target and body per request (a write on a resource of its own). */
  next?: () => { path: string; body?: string | Buffer };
  /** Headers read when the round starts (a token renewed before it), instead of `headers`. */
  headersOf?: () => Record<string, string>;
}

interface Case {
  label: string;
  write: boolean;
  sandbox: Spec;
  bare: Spec;
  /** Requests per round when the round is counted, not timed (loans: each consumes an offer). */
  amount?: number;
  /**
   * Run before each round of the sandbox with its number of requests (an inspector entry falls out
   * of the log after 1,000 requests; a consuming write makes what each request acts on).
   */
  prepare?: (n: number) => Promise<void>;
  /** How the bare app reads a write's body. */
  parse?: 'json' | 'form' | 'none';
}

interface Round {
  rps: number;
  cpu: number;
  non2xx: number;
}

const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ');

async function fire(
  child: ChildProcess,
  base: string,
  spec: Spec,
  seconds: number,
  amount?: number,
): Promise<Round> {
  const before = await childCpuMicros(child);
  const started = performance.now();
  const statuses = new Map<number, number>();
  let instance: ReturnType<typeof autocannon.track> | undefined;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
        url: base,
        connections: amount === undefined ? CONNECTIONS : Math.min(CONNECTIONS, amount),
        pipelining: 1,
        ...(amount === undefined ? { duration: seconds } : { amount }),
        requests: [
          {
            method: spec.method as 'GET',
            path: spec.path,
            headers: {
              ...(spec.body ? { 'content-type': 'application/json' } : {}),
              ...(spec.headersOf?.() ?? spec.headers),
            },
            ...((spec.body || spec.next) && {
              setupRequest: (req: autocannon.Request) => {
                if (spec.next) {
                  const next = spec.next();
                  req.path = next.path;
                  if (next.body !== undefined) req.body = next.body;
                } else req.body = (spec.body as () => string)();
                return req;
              },
            }),
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    ) as unknown as ReturnType<typeof autocannon.track>;
  });
  // A counted round is timed from its first request sent to its last answer: autocannon itself
  // ends a round on its next one-second tick, which would swamp a round of a hundred requests.
  let first = Number.POSITIVE_INFINITY;
  let last = 0;
  (instance as unknown as NodeJS.EventEmitter).on(
    'response',
    (_client: unknown, status: number, _bytes: number, responseTime: number) => {
      if (status >= 300) statuses.set(status, (statuses.get(status) ?? 0) + 1);
      const now = performance.now();
      first = Math.min(first, now - responseTime);
      last = now;
    },
  );
  const result = await done;
  const elapsed = (amount === undefined || last === 0 ? performance.now() - started : last - first) / 1000;
  if (result.non2xx > 0)
    console.error(`${spec.method} ${spec.path}: answers ${JSON.stringify(Object.fromEntries(statuses))}`);
  const used = (await childCpuMicros(child)) - before;
  const total = result.requests.total;
  return {
    rps: total / Math.max(elapsed, 0.001),
    cpu: used / Math.max(total, 1),
    non2xx: result.non2xx,
  };
}

function heap(child: ChildProcess): Promise<{ heap: number; collections: number }> {
  return new Promise((resolve) => {
    const onMessage = (m: unknown) => {
      const answer = m as { heap?: number; collections?: number };
      if (answer.heap === undefined) return;
      child.off('message', onMessage);
      resolve(answer as { heap: number; collections: number });
    };
    child.on('message', onMessage);
    child.send('heap');
  });
}

async function allocated(
  child: ChildProcess,
  base: string,
  spec: Spec,
  amount: number,
  prepare?: (n: number) => Promise<void>,
): Promise<number> {
  const perRequest: number[] = [];
  for (let round = 0; round < 5 && perRequest.length < 3; round++) {
    await prepare?.(amount);
    const before = await heap(child);
    await fire(child, base, spec, 0, amount);
    const after = await heap(child);
    if (after.collections === before.collections) perRequest.push((after.heap - before.heap) / amount);
  }
  return perRequest.length > 0 ? median(perRequest) : Number.NaN;
}

async function cases(s: Session, loans: number): Promise<Case[]> {
  const document = await call<{ paths: Record<string, Record<string, unknown>> }>(s, 'GET', '/openapi.json');
  const out: Case[] = [];
  for (const { template, path } of readPaths(document, s.ids)) {
    const spec = { method: 'GET', path: `/v3${path}`, headers: s.headers() };
    const c: Case = {
      label: `GET ${template}`,
      write: false,
      sandbox: spec,
      bare: { method: 'GET', path: `/v3${path}` },
    };
    if (template === '/sandbox/requests/{request_id}') {
      // The entry must still be in the partner's log (1,000 entries) when the round ends.
      c.amount = REQUEST_LOG_ROUND;
      c.prepare = async () => {
        const latest = await call<{ data: { id: string }[] }>(s, 'GET', '/sandbox/requests?limit=1');
        spec.path = `/v3/sandbox/requests/${latest.data[0]?.id}`;
      };
    }
    out.push(c);
  }
  // The writes, on a partner of their own (no webhook endpoint: see test/support/operation-data.ts, `writer`).
  const w = await writer(s);
  let next = Math.floor(Math.random() * 100_000_000);
  const [simulationOffer] = await loanTerms(w, 1);
  const terms = (await loanTerms(w, loans)).map(({ credit_offer_id, simulation_id }) => ({
    credit_offer_id,
    simulation_id,
  }));
  const json = (body: unknown) => () => JSON.stringify(body);
  const writes: [string, string, () => string, number?][] = [
    [
      'POST /customers',
      '/v3/customers',
      () => JSON.stringify({ cpf: cpfOf(next++), name: 'Bench Writer', email: 'w@example.com' }),
    ],
    [
      'POST /credit-offers/{credit_offer_id}/simulations',
      `/v3/credit-offers/${simulationOffer?.credit_offer_id}/simulations`,
      json({ requested_amount: simulationOffer?.amount, installment_count: 6 }),
    ],
    ['POST /loans', '/v3/loans', () => JSON.stringify(terms.shift()), LOAN_BATCH],
    [
      'PATCH /customers/{customer_id}',
      `/v3/customers/${w.ids.pending_customer_id}`,
      json({ name: 'Bench Patched' }),
    ],
  ];
  for (const [label, path, body, amount] of writes) {
    const method = label.split(' ')[0] as string;
    // The bare app parses a body of the same shape and size (it never runs out of loan terms).
    const sample = JSON.stringify({ ...(JSON.parse(body()) as object) });
    out.push({
      label,
      write: true,
      sandbox: { method, path, headers: w.headers(), body },
      bare: { method, path, body: () => sample },
      parse: 'json',
      ...(amount !== undefined && { amount }),
    });
  }
  for (const c of await writeCases(s)) {
    out.push({
      label: c.label,
      write: true,
      sandbox: { method: c.method, path: '', next: c.next, headersOf: c.headers },
      // Filled with the target and body of the request `answers` sends.
      bare: { method: c.method, path: '' },
      parse: c.parse,
      ...(c.amount !== undefined && { amount: c.amount }),
      ...(c.prepare && { prepare: c.prepare }),
    });
  }
  coveredWrites(
    document,
    out.filter((c) => c.write).map((c) => c.label),
  );
  return out;
}

/** Operations the bench could not repeat, with the answer that stopped them. */
const failed = new Map<string, string>();

/**
 * What the sandbox answers to each case once: the bare app answers the same (a write on a
 * resource of its own: at the target and with the body of this request). A case refused here is
 * set aside in `failed`.
 */
async function answers(s: Session, list: Case[]): Promise<BareAnswer[]> {
  const out: BareAnswer[] = [];
  for (const c of list) {
    try {
      await c.prepare?.(1);
      const next = c.sandbox.next?.() ?? { path: c.sandbox.path, body: c.sandbox.body?.() };
      const headers = {
        ...(next.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(c.sandbox.headersOf?.() ?? c.sandbox.headers),
      };
      const res = await fetch(`${s.base.replace(/\/v3$/, '')}${next.path}`, {
        method: c.sandbox.method,
        headers,
        body: next.body,
      });
      const body = await res.text();
      if (res.status >= 300) throw new Error(`${res.status} ${body.slice(0, 160)}`);
      if (c.sandbox.next) {
        const sample = next.body;
        c.bare.path = next.path;
        c.bare.headers = { 'content-type': headers['content-type'] ?? 'application/json' };
        if (sample !== undefined) c.bare.body = () => sample;
      }
      out.push({
        method: c.sandbox.method,
        path: c.bare.path.split('?')[0] as string,
        status: res.status,
        contentType: res.headers.get('content-type') ?? 'application/json',
        body,
        parse: c.parse ?? 'none',
      });
    } catch (error) {
      failed.set(c.label, (error as Error).message);
    }
  }
  return out;
}

const fixed = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '—');
const whole = (x: number) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '—');

async function main() {
  const startedAt = new Date();
  const loadBefore = load();
  buildDist();
  const receiver = await startChild('./servers/webhook-receiver.ts');
  const sandbox = await startChild('./servers/sandbox.ts', {
    ACCESS_LOG: 'pretty',
    REQUEST_LOG_SIZE: '1000',
  });
  const children: ChildProcess[] = [receiver.child, sandbox.child];
  try {
    const s = await session(`http://127.0.0.1:${sandbox.port}/v3`, BENCH_BASIC);
    await seed(s, `http://127.0.0.1:${receiver.port}/hook`);
    const all = await cases(
      s,
      ONLY && !ONLY.some((o) => 'POST /loans'.includes(o)) ? 1 : (RUNS + 1) * LOAN_BATCH + 10,
    );
    const list = ONLY ? all.filter((c) => ONLY.some((o) => c.label.includes(o))) : all;
    const file = join(mkdtempSync(join(tmpdir(), 'bench-ops-')), 'answers.json');
    writeFileSync(file, JSON.stringify(await answers(s, list)));
    const bare = await startChild('./servers/bare-operations.ts', { OPERATIONS_FILE: file });
    children.push(bare.child);
    const sides = [
      { child: sandbox.child, base: `http://127.0.0.1:${sandbox.port}`, pick: (c: Case) => c.sandbox },
      { child: bare.child, base: `http://127.0.0.1:${bare.port}`, pick: (c: Case) => c.bare },
    ];
    const rounds = list.map(() => [[], []] as [Round[], Round[]]);
    /** One round of one side; an operation that fails a round is set aside (`failed`). */
    const round = async (c: Case, which: number, seconds: number, amount: number | undefined) => {
      if (failed.has(c.label)) return undefined;
      const side = sides[which] as (typeof sides)[number];
      try {
        if (which === 0) await c.prepare?.(amount ?? 0);
        const r = await fire(side.child, side.base, side.pick(c), seconds, amount);
        if (r.non2xx > 0) throw new Error(`${r.non2xx} answers not 2xx in a round`);
        return r;
      } catch (error) {
        failed.set(c.label, `${which === 0 ? 'sandbox' : 'bare'}: ${(error as Error).message}`);
        return undefined;
      }
    };
    for (const c of list) {
      for (const which of [0, 1])
        await round(c, which, WARM_SECONDS, c.amount && Math.min(c.amount, LOAN_BATCH));
    }
    for (let run = 0; run < RUNS; run++) {
      for (const [i, c] of list.entries()) {
        for (let k = 0; k < 2; k++) {
          const which = (run + i + k) % 2;
          const r = await round(c, which, ROUND_SECONDS, c.amount);
          if (r) rounds[i]?.[which]?.push(r);
        }
      }
    }
    const loadAfterRuns = load();
    const bytes = await allocation(
      list.filter((c) => !failed.has(c.label)),
      file,
    );
    const rows = list.map((c, i) => {
      const why = failed.get(c.label);
      if (why !== undefined) {
        return `| \`${c.label}\` | — | — | not measured: ${why.replaceAll('|', '/').replaceAll('\n', ' ')} | — | — | — | MISSED (not measured) |`;
      }
      const [mine, theirs] = rounds[i] as [Round[], Round[]];
      const throughput = mine.map((r, k) => r.rps / (theirs[k]?.rps ?? Number.NaN));
      const cpu = mine.map((r, k) => r.cpu / (theirs[k]?.cpu ?? Number.NaN));
      const t = median(throughput);
      const u = median(cpu);
      const target = c.write ? WRITE_TARGET : READ_TARGET;
      const met = t >= target && (c.write || u <= CPU_BUDGET);
      return `| \`${c.label}\` | ${whole(median(mine.map((r) => r.rps)))} | ${whole(median(theirs.map((r) => r.rps)))} | **${fixed(t)}** (${fixed(Math.min(...throughput))}–${fixed(Math.max(...throughput))}) | ${fixed(median(mine.map((r) => r.cpu)))} / ${fixed(median(theirs.map((r) => r.cpu)))} | **${fixed(u)}** | ${whole(bytes.get(c.label)?.[0] ?? Number.NaN)} / ${whole(bytes.get(c.label)?.[1] ?? Number.NaN)} | ≥ ${target}${c.write ? '' : `, CPU ≤ ${CPU_BUDGET}`}: ${met ? 'met' : 'MISSED'} |`;
    });
    console.log(
      [
        `Run ${startedAt.toISOString()}: ${WARM_SECONDS} s of load on each side before ${RUNS} interleaved rounds of ${ROUND_SECONDS} s per operation (loans: ${LOAN_BATCH} requests a round), ${CONNECTIONS} connections, loopback; load average (1 / 5 / 15 min) ${loadBefore} at the start, ${loadAfterRuns} after the rounds; ${((Date.now() - startedAt.getTime()) / 60000).toFixed(1)} min in all.`,
        '',
        '| operation | sandbox req/s | bare req/s | throughput × bare (pooled median; range of rounds) | CPU µs per request, sandbox / bare | CPU × bare | bytes allocated per request, sandbox / bare | target |',
        '|---|---:|---:|---|---:|---:|---:|---|',
        ...rows,
      ].join('\n'),
    );
  } finally {
    for (const child of children) child.kill();
  }
}

/** Bytes allocated per request, each side on its own server with a large young generation. */
async function allocation(list: Case[], file: string): Promise<Map<string, [number, number]>> {
  const big = ['--max-semi-space-size=256', '--min-semi-space-size=256'];
  const sandbox = await startWith(
    './servers/sandbox.ts',
    { ACCESS_LOG: 'pretty', REQUEST_LOG_SIZE: '1000' },
    big,
  );
  const bare = await startWith('./servers/bare-operations.ts', { OPERATIONS_FILE: file }, big);
  try {
    // The same partner's data on the second sandbox: its own seeding (ids differ, so paths are rebuilt).
    const t = await session(`http://127.0.0.1:${sandbox.port}/v3`, BENCH_BASIC);
    const receiver = await startChild('./servers/webhook-receiver.ts');
    try {
      await seed(t, `http://127.0.0.1:${receiver.port}/hook`);
      const mine = await cases(t, list.some((c) => c.label === 'POST /loans') ? 5 * ALLOC_LOANS + 20 : 1);
      const out = new Map<string, [number, number]>();
      for (const theirs of list) {
        const c = mine.find((m) => m.label === theirs.label);
        if (!c) continue;
        const amount = c.amount === undefined ? ALLOC_REQUESTS : Math.min(c.amount, ALLOC_LOANS);
        const warm = Math.min(200, amount);
        try {
          await c.prepare?.(warm);
          await fire(sandbox.child, `http://127.0.0.1:${sandbox.port}`, c.sandbox, 0, warm);
          await fire(bare.child, `http://127.0.0.1:${bare.port}`, theirs.bare, 0, warm);
          out.set(theirs.label, [
            await allocated(sandbox.child, `http://127.0.0.1:${sandbox.port}`, c.sandbox, amount, c.prepare),
            await allocated(bare.child, `http://127.0.0.1:${bare.port}`, theirs.bare, amount),
          ]);
        } catch {
          // Left out of the allocation column (—); its throughput and CPU stand.
        }
      }
      return out;
    } finally {
      receiver.child.kill();
    }
  } finally {
    sandbox.child.kill();
    bare.child.kill();
  }
}

async function startWith(script: string, env: Record<string, string>, flags: string[]) {
  const child = fork(fileURLToPath(new URL(script, import.meta.url)), [], {
    execArgv: ['--import', 'tsx', ...flags],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...process.env, ...env },
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { child, port };
}

await main();
