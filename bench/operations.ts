// Every operation of the OpenAPI document (every GET; every POST, PUT, PATCH and DELETE: the four
// writes the issue names here, the others in bench/write-cases.ts) through the whole sandbox
// (`serve`'s default flags: access log `pretty` to /dev/null, request inspector at 1,000 entries,
// rate limiter on but out of reach) against a bare Hono app answering the same bytes at the same
// path (bench/servers/bare-operations.ts; a write: it parses the same body and answers the same
// JSON).
//
// RUNS runs (default 5), each on a fresh pair of server processes: a server process keeps its own
// speed through its life (two processes of the same build differ by ±13 %, once by a third; see
// docs/performance.md), so a figure pooled over one pair measures that pair. In each run, every
// operation gets WARM_SECONDS of load on each side, then ROUNDS interleaved rounds (default 1) of
// ROUND_SECONDS on each side, the side that goes first alternating by operation, round and run.
// The ratios are pooled medians of the per-round ratios of all runs, with their range. Server CPU
// per request (all threads, user + system) is read around each round; bytes allocated per request
// are measured after, with both servers on a young generation large enough that no collection
// runs during a round (rounds with one are discarded).
//
// `npm run bench:operations` (env RUNS=5, ROUNDS=1, WARM_SECONDS=3, ROUND_SECONDS=1; ONLY=GET
// /loans,POST for some): about 50 minutes on 2 cores. An operation the bench cannot repeat is
// listed as not measured, with the answer it got, and the others go on.
// Prints one markdown table and the machine's load at the start, after each run and at the end.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
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
import { allocated, type Case, CONNECTIONS, fire, type Round, startWith } from './operation-rounds.js';
import type { BareAnswer } from './servers/bare-operations.js';
import { buildDist, median, startChild } from './support.js';
import { coveredWrites, writeCases } from './write-cases.js';

const BENCH_BASIC = basicOf('cid_bench', 'svc_cs_test_bench');
/** Runs, each on a fresh pair of server processes. */
const RUNS = Number(process.env.RUNS ?? 5);
/** Interleaved rounds of each operation per run. */
const ROUNDS = Number(process.env.ROUNDS ?? 1);
/** Only the operations whose label contains one of these (comma-separated), e.g. ONLY=POST,PATCH. */
const ONLY = process.env.ONLY?.split(',').filter(Boolean);
const ROUND_SECONDS = Number(process.env.ROUND_SECONDS ?? 1);
/**
 * Load on each side before its rounds count, per operation: long enough for the JIT to have
 * compiled what the operation runs (the sandbox's CPU per request falls for 3–5 s of load before
 * it levels off; bare Hono's within the first second), so rounds compare steady states.
 */
const WARM_SECONDS = Number(process.env.WARM_SECONDS ?? 3);
/** Loans per round: each needs an offer and a simulation of its own, made before the rounds. */
const LOAN_BATCH = Number(process.env.LOAN_BATCH ?? 300);
const ALLOC_REQUESTS = 1000;
const ALLOC_LOANS = 200;
/** Requests per round reading one inspector entry: well under the log's 1,000, so it stays. */
const REQUEST_LOG_ROUND = 600;
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ');
const READ_TARGET = 0.85;
const WRITE_TARGET = 0.5;
const CPU_BUDGET = 1.15;

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

/** Per operation, the rounds of each side (sandbox, bare), pooled over every run. */
type Pool = Map<string, [Round[], Round[]]>;

/**
 * One run: a fresh sandbox (seeded through its API), a fresh bare app answering what that sandbox
 * answered, each operation warmed on both sides, then ROUNDS interleaved rounds of each operation.
 * Every server process is killed at the end: the next run starts its own (a process keeps its
 * own speed through its life, so pooling runs pools processes, not only rounds).
 */
async function run(index: number, pool: Pool): Promise<{ list: Case[]; dir: string }> {
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
      ONLY && !ONLY.some((o) => 'POST /loans'.includes(o)) ? 1 : (ROUNDS + 1) * LOAN_BATCH + 10,
    );
    const list = ONLY ? all.filter((c) => ONLY.some((o) => c.label.includes(o))) : all;
    const dir = mkdtempSync(join(tmpdir(), 'bench-ops-'));
    const file = join(dir, 'answers.json');
    writeFileSync(file, JSON.stringify(await answers(s, list)));
    const bare = await startChild('./servers/bare-operations.ts', { OPERATIONS_FILE: file });
    children.push(bare.child);
    const sides = [
      { child: sandbox.child, base: `http://127.0.0.1:${sandbox.port}`, pick: (c: Case) => c.sandbox },
      { child: bare.child, base: `http://127.0.0.1:${bare.port}`, pick: (c: Case) => c.bare },
    ];
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
    for (let r = 0; r < ROUNDS; r++) {
      for (const [i, c] of list.entries()) {
        const rounds = pool.get(c.label) ?? ([[], []] as [Round[], Round[]]);
        pool.set(c.label, rounds);
        for (let k = 0; k < 2; k++) {
          // Which side goes first alternates by operation, round and run.
          const which = (index + r + i + k) % 2;
          const result = await round(c, which, ROUND_SECONDS, c.amount);
          if (result) rounds[which]?.push(result);
        }
      }
    }
    return { list, dir };
  } finally {
    for (const child of children) child.kill();
  }
}

async function main() {
  const startedAt = new Date();
  const loadBefore = load();
  buildDist();
  const pool: Pool = new Map();
  /** The last run's cases and answers: the allocation pass's bare app answers what that run's sandbox did. */
  let last = { list: [] as Case[], dir: '' };
  const loads: string[] = [];
  for (let index = 0; index < RUNS; index++) {
    if (last.dir) rmSync(last.dir, { recursive: true, force: true });
    last = await run(index, pool);
    loads.push(loadavg()[0]?.toFixed(2) ?? '?');
  }
  const list = last.list;
  const loadAfterRuns = load();
  const labels = list.map((c) => c.label);
  const writes = new Set(list.filter((c) => c.write).map((c) => c.label));
  const bytes = await allocation(
    list.filter((c) => !failed.has(c.label)),
    join(last.dir, 'answers.json'),
  );
  rmSync(last.dir, { recursive: true, force: true });
  const rows = labels.map((label) => {
    const why = failed.get(label);
    if (why !== undefined) {
      return `| \`${label}\` | — | — | not measured: ${why.replaceAll('|', '/').replaceAll('\n', ' ')} | — | — | — | MISSED (not measured) |`;
    }
    const write = writes.has(label);
    const [mine, theirs] = pool.get(label) as [Round[], Round[]];
    const throughput = mine.map((r, k) => r.rps / (theirs[k]?.rps ?? Number.NaN));
    const cpu = mine.map((r, k) => r.cpu / (theirs[k]?.cpu ?? Number.NaN));
    const t = median(throughput);
    const u = median(cpu);
    const target = write ? WRITE_TARGET : READ_TARGET;
    const met = t >= target && (write || u <= CPU_BUDGET);
    return `| \`${label}\` | ${whole(median(mine.map((r) => r.rps)))} | ${whole(median(theirs.map((r) => r.rps)))} | **${fixed(t)}** (${fixed(Math.min(...throughput))}–${fixed(Math.max(...throughput))}) | ${fixed(median(mine.map((r) => r.cpu)))} / ${fixed(median(theirs.map((r) => r.cpu)))} | **${fixed(u)}** (${fixed(Math.min(...cpu))}–${fixed(Math.max(...cpu))}) | ${whole(bytes.get(label)?.[0] ?? Number.NaN)} / ${whole(bytes.get(label)?.[1] ?? Number.NaN)} | ≥ ${target}${write ? '' : `, CPU ≤ ${CPU_BUDGET}`}: ${met ? 'met' : 'MISSED'} |`;
  });
  console.log(
    [
      `Run ${startedAt.toISOString()}: ${RUNS} runs, each on a fresh pair of server processes (a sandbox seeded through its API, a bare app answering what it answered): ${WARM_SECONDS} s of load on each side per operation, then ${ROUNDS} interleaved round${ROUNDS === 1 ? '' : 's'} of ${ROUND_SECONDS} s per operation and side (loans: ${LOAN_BATCH} requests a round), ${CONNECTIONS} connections, loopback. Load average (1 / 5 / 15 min) ${loadBefore} at the start, ${loadAfterRuns} after the runs (1 min after each run: ${loads.join(', ')}); ${((Date.now() - startedAt.getTime()) / 60000).toFixed(1)} min in all.`,
      '',
      '| operation | sandbox req/s | bare req/s | throughput × bare (pooled median; range of rounds) | CPU µs per request, sandbox / bare | CPU × bare (pooled median; range) | bytes allocated per request, sandbox / bare | target |',
      '|---|---:|---:|---|---:|---|---:|---|',
      ...rows,
    ].join('\n'),
  );
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

await main();
