// The request inspector's cost on the hot path: the same authenticated GETs against sandbox
// processes in the same run, one keeping the request log (default 1,000 per partner) and one with
// it off (--request-log-size 0, which still sets Request-Id). A second process with the log off
// runs the same rounds: the off / off ratio shows how far this machine's noise alone moves a ratio.
import type { ChildProcess } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { benchSession, buildDist, formatNumber, load, loadWithCpu, median, startChild } from './support.js';

const TARGET_RATIO = 0.9;
/** Many short rounds, alternating: drift in machine speed hits every side alike. */
const ROUNDS = 15;
const ROUND_SECONDS = 1.5;

interface Side {
  label: string;
  child: ChildProcess;
  base: string;
  headers: Record<string, string>;
  customerId: string;
}

interface Round {
  requestsPerSecond: number;
  /** Server CPU (all threads, user + system) per answered request, in microseconds. */
  cpuMicros: number;
}

async function prepare(label: string, requestLogSize: string): Promise<Side> {
  const { port, child } = await startChild('./servers/sandbox.ts', {
    REQUEST_LOG_SIZE: requestLogSize,
    ACCESS_LOG: 'off',
  });
  const base = `http://127.0.0.1:${port}/v3`;
  const { headers, customerId } = await benchSession(base);
  return { label, child, base, headers, customerId };
}

async function measure(side: Side, url: string, seconds: number): Promise<Round> {
  const result = await loadWithCpu(side.child, url, { seconds, headers: side.headers });
  if (result.non2xx > 0) throw new Error(`${side.label} ${url}: ${result.non2xx} non-2xx`);
  return result;
}

/** Per-round ratios of `a` to `b`: throughput a / b, and CPU per request b / a (higher = a cheaper). */
function ratios(a: Round[], b: Round[]): { throughput: number[]; cpu: number[] } {
  return {
    throughput: a.map((r, i) => r.requestsPerSecond / (b[i]?.requestsPerSecond ?? Number.NaN)),
    cpu: a.map((r, i) => (b[i]?.cpuMicros ?? Number.NaN) / r.cpuMicros),
  };
}

const fixed = (values: number[]) => values.map((x) => x.toFixed(2)).join(', ');

export async function run(): Promise<{ name: string; markdown: string; ok: boolean }> {
  buildDist();
  const sides = [
    await prepare('inspector on', '1000'),
    await prepare('inspector off', '0'),
    await prepare('inspector off (second process)', '0'),
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
        // Which side goes first rotates too, so none always runs right after another's load.
        for (let k = 0; k < sides.length; k++) {
          const s = (round + k) % sides.length;
          rounds[p]?.[s]?.push(await measure(sides[s] as Side, url(sides[s] as Side, p), ROUND_SECONDS));
        }
      }
    }
    const lines: string[] = [];
    const noise: string[] = [];
    const medians: number[] = [];
    for (const [p, target] of paths.entries()) {
      const [on, off, offAgain] = rounds[p] as [Round[], Round[], Round[]];
      const inspector = ratios(on, off);
      const aa = ratios(offAgain, off);
      const ratio = median(inspector.throughput);
      medians.push(ratio);
      const cpu = (r: Round[]) => median(r.map((x) => x.cpuMicros)).toFixed(1);
      lines.push(
        `| ${target.label} | ${formatNumber(median(on.map((r) => r.requestsPerSecond)))} | ${formatNumber(median(off.map((r) => r.requestsPerSecond)))} | **${ratio.toFixed(2)}** (${fixed(inspector.throughput)}) | ${cpu(on)} / ${cpu(off)} µs: **${median(inspector.cpu).toFixed(2)}** |`,
      );
      noise.push(
        `| ${target.label} | ${median(aa.throughput).toFixed(2)} (${fixed(aa.throughput)}) | ${median(aa.cpu).toFixed(2)} |`,
      );
    }
    const ok = medians.every((r) => r >= TARGET_RATIO);
    const markdown = [
      `Sandbox processes (production build) answer the same authenticated GETs: one records every request in the partner's request log (ring of 1,000, bodies redacted), one runs with \`--request-log-size 0\` (only \`Request-Id\`). ${ROUNDS} rounds of ${ROUND_SECONDS} s each, the sides taking turns (the order rotates), 32 connections, loopback. Each round also reads the server's CPU time (all threads, user + system) per answered request.`,
      '',
      '| request | req/s inspector on (median) | req/s inspector off (median) | throughput on / off (median; per round) | server CPU per request on / off: off ÷ on (median) |',
      '|---|---:|---:|---|---|',
      ...lines,
      '',
      `Target: throughput on / off >= ${TARGET_RATIO} for every request — ${ok ? 'met' : 'MISSED'}.`,
      '',
      "The machine's own noise, measured in the same rounds: a second process with the inspector off against the first (1.00 would be no noise at all).",
      '',
      '| request | throughput off / off (median; per round) | CPU per request off ÷ off (median) |',
      '|---|---|---|',
      ...noise,
    ].join('\n');
    return { name: 'Request inspector overhead', markdown, ok };
  } finally {
    for (const side of sides) side.child.kill();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await run();
  console.log(`## ${result.name}\n\n${result.markdown}`);
}
