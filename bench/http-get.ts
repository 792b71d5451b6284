// Authenticated GETs of small resources through the whole sandbox stack (auth, rate limit, request
// log, access log, routing, serialization) versus a bare Hono app answering static JSON of the same
// shape, same run, same machine. Four server processes take turns in every round:
//   - bare Hono, and a second bare Hono process (bare / bare is the machine's noise line);
//   - the sandbox with `serve`'s default features: access log `pretty` (stdout to /dev/null),
//     request inspector 1,000 per partner, rate limiter on (out of reach);
//   - the sandbox with them off (`--log off --request-log-size 0`): what the features cost.
// Run alone: `npx tsx bench/http-get.ts` (env ROUNDS, ROUND_SECONDS to change the rounds).
import type { ChildProcess } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { benchSession, buildDist, formatNumber, load, loadWithCpu, median, startChild } from './support.js';

/** Throughput × bare Hono that must be reached (the floor; its goal is 0.9). */
const TARGET_RATIO = 0.85;
/** Server CPU per request × bare Hono that must not be exceeded. */
const CPU_BUDGET = 1.15;
const ROUNDS = Number(process.env.ROUNDS ?? 6);
const ROUND_SECONDS = Number(process.env.ROUND_SECONDS ?? 2);

interface Side {
  label: string;
  child: ChildProcess;
  base: string;
  headers?: Record<string, string>;
  customerId: string;
}

interface Round {
  requestsPerSecond: number;
  p99Ms: number;
  /** Server CPU (all threads, user + system) per answered request, in microseconds. */
  cpuMicros: number;
}

/** The customer id the bare app answers for (any id matches its route). */
const BARE_CUSTOMER = 'cust_0123456789abcdef0123456789abcdef';

async function bareSide(label: string): Promise<Side> {
  const { port, child } = await startChild('./servers/bare-hono.ts');
  return { label, child, base: `http://127.0.0.1:${port}/v3`, customerId: BARE_CUSTOMER };
}

async function sandboxSide(label: string, env: Record<string, string>): Promise<Side> {
  const { port, child } = await startChild('./servers/sandbox.ts', env);
  const base = `http://127.0.0.1:${port}/v3`;
  const { headers, customerId } = await benchSession(base);
  return { label, child, base, headers, customerId };
}

/** Per-round ratios of `a` to `b`: throughput a ÷ b, and CPU per request a ÷ b (lower = a cheaper). */
function ratios(a: Round[], b: Round[]): { throughput: number[]; cpu: number[] } {
  return {
    throughput: a.map((r, i) => r.requestsPerSecond / (b[i]?.requestsPerSecond ?? Number.NaN)),
    cpu: a.map((r, i) => r.cpuMicros / (b[i]?.cpuMicros ?? Number.NaN)),
  };
}

const fixed = (values: number[]) => values.map((x) => x.toFixed(2)).join(', ');

export async function run(): Promise<{ name: string; markdown: string; ok: boolean }> {
  buildDist();
  const sides = [
    await bareSide('bare Hono'),
    await bareSide('bare Hono (second process)'),
    await sandboxSide('sandbox, default flags', { ACCESS_LOG: 'pretty', REQUEST_LOG_SIZE: '1000' }),
    await sandboxSide('sandbox, `--log off --request-log-size 0`', {
      ACCESS_LOG: 'off',
      REQUEST_LOG_SIZE: '0',
    }),
  ];
  try {
    const paths = [
      { label: '`GET /v3/sandbox/clock`', path: () => '/sandbox/clock' },
      { label: '`GET /v3/customers/{id}`', path: (s: Side) => `/customers/${s.customerId}` },
    ];
    const url = (side: Side, p: number) => `${side.base}${paths[p]?.path(side)}`;
    for (const p of paths.keys()) {
      for (const side of sides) await load(url(side, p), { seconds: 2, headers: side.headers });
    }
    const rounds = paths.map(() => sides.map((): Round[] => []));
    for (let round = 0; round < ROUNDS; round++) {
      for (const p of paths.keys()) {
        // Which side goes first rotates, so none always runs right after another's load.
        for (let k = 0; k < sides.length; k++) {
          const s = (round + k) % sides.length;
          const side = sides[s] as Side;
          const result = await loadWithCpu(side.child, url(side, p), {
            seconds: ROUND_SECONDS,
            headers: side.headers,
          });
          if (result.non2xx > 0) throw new Error(`${side.label} ${url(side, p)}: ${result.non2xx} non-2xx`);
          rounds[p]?.[s]?.push(result);
        }
      }
    }
    const table: string[] = [];
    const summary: string[] = [];
    let ok = true;
    for (const [p, target] of paths.entries()) {
      const [bare, bareAgain, defaults, off] = rounds[p] as [Round[], Round[], Round[], Round[]];
      const cpu = (r: Round[]) => median(r.map((x) => x.cpuMicros)).toFixed(1);
      const rps = (r: Round[]) => formatNumber(median(r.map((x) => x.requestsPerSecond)));
      const p99 = (r: Round[]) => median(r.map((x) => x.p99Ms));
      for (const [s, side] of sides.entries()) {
        const r = rounds[p]?.[s] as Round[];
        const vs = s === 0 ? undefined : ratios(r, bare);
        const cells = vs
          ? `**${median(vs.throughput).toFixed(2)}** (${fixed(vs.throughput)}) | **${median(vs.cpu).toFixed(2)}** (${fixed(vs.cpu)})`
          : ' | ';
        table.push(`| ${target.label} | ${side.label} | ${rps(r)} | ${p99(r)} | ${cpu(r)} | ${cells} |`);
      }
      const d = ratios(defaults, bare);
      const n = ratios(bareAgain, bare);
      const o = ratios(off, bare);
      const met = median(d.throughput) >= TARGET_RATIO && median(d.cpu) <= CPU_BUDGET;
      ok &&= met;
      summary.push(
        `| ${target.label} | ${median(d.throughput).toFixed(2)} / ${median(d.cpu).toFixed(2)} | ${median(o.throughput).toFixed(2)} / ${median(o.cpu).toFixed(2)} | ${median(n.throughput).toFixed(2)} / ${median(n.cpu).toFixed(2)} | ${met ? 'met' : 'MISSED'} |`,
      );
    }
    const markdown = [
      `The sandbox runs its production build (\`dist/\`, as in the Docker image). Authenticated requests (bearer token, per-partner rate limit on, request inspector and access log as \`serve\` sets them by default, access log to /dev/null) against a bare Hono app on @hono/node-server answering static JSON of the same shape. ${ROUNDS} rounds of ${ROUND_SECONDS} s; in each, four server processes take turns (the order rotates): bare Hono, a second bare Hono (the noise line), the sandbox with default flags, and the sandbox with \`--log off --request-log-size 0\`. 32 connections, loopback. Each round also reads the server's CPU time (all threads, user + system) per answered request.`,
      '',
      '| request | server | req/s (median) | p99 ms | server CPU µs per request (median) | throughput × bare (median; per round) | CPU per request × bare (median; per round) |',
      '|---|---|---:|---:|---:|---|---|',
      ...table,
      '',
      `Summary (medians; throughput × bare / CPU per request × bare). Target with the default flags: throughput >= ${TARGET_RATIO} (goal 0.9) and CPU <= ${CPU_BUDGET}× bare, on both reads.`,
      '',
      '| request | default flags | features off | noise: bare / bare | target |',
      '|---|---|---|---|---|',
      ...summary,
    ].join('\n');
    return { name: 'Authenticated GET vs bare Hono', markdown, ok };
  } finally {
    for (const side of sides) side.child.kill();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await run();
  console.log(`## ${result.name}\n\n${result.markdown}`);
}
