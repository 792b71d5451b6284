// What recording the Prometheus metrics (`GET /metrics`, on by default) costs a request: the
// same sandbox build with `--metrics on` and `--metrics off`, same run, interleaved rounds (the
// order rotates), server CPU per answered request read over IPC between loads. Three routes: the
// hot clock read, a customer read and a list (`GET /v3/sandbox/events`), each answered through
// the request path that records it. Run alone: `npx tsx bench/metrics-overhead.ts` (env ROUNDS,
// ROUND_SECONDS).
import { loadavg } from 'node:os';
import { SandboxMetrics } from '../src/http/metrics.js';
import { benchSession, buildDist, formatNumber, loadWithCpu, median, startChild } from './support.js';

const ROUNDS = Number(process.env.ROUNDS ?? 8);
const ROUND_SECONDS = Number(process.env.ROUND_SECONDS ?? 2);

async function side(label: string, metrics: 'on' | 'off') {
  const { port, child } = await startChild('./servers/sandbox.ts', { METRICS: metrics, ACCESS_LOG: 'off' });
  const base = `http://127.0.0.1:${port}/v3`;
  const session = await benchSession(base);
  return { label, child, base, ...session };
}

/**
 * The recording call alone, in this process: ns per `observeRequest` (cached children: a counter
 * increment and a histogram observation), over a realistic mix of routes and statuses. Unlike the
 * servers' CPU per request, this is not drowned by a loaded machine's noise.
 */
function recordingNs(): number[] {
  const metrics = new SandboxMetrics({
    residentPartners: () => 0,
    totalPartners: () => 0,
    inspectorBytes: () => 0,
    snapshotBytes: () => 0,
  });
  const routes = ['/v3/customers/{customer_id}', '/v3/sandbox/clock', '/v3/loans', 'unmatched'];
  const statuses = [200, 201, 404, 422];
  const runs: number[] = [];
  for (let run = 0; run < 5; run++) {
    const n = 1_000_000;
    const started = process.hrtime.bigint();
    for (let i = 0; i < n; i++) {
      metrics.observeRequest(
        i & 1 ? 'GET' : 'POST',
        routes[i & 3] as string,
        statuses[(i >> 2) & 3] as number,
        0.002,
      );
    }
    runs.push(Number(process.hrtime.bigint() - started) / n);
  }
  return runs;
}

const ns = recordingNs();
console.log(
  `observeRequest: ${median(ns).toFixed(0)} ns per call (median of 5 × 1,000,000; ${ns.map((x) => x.toFixed(0)).join(', ')})`,
);

buildDist();
const sides = [await side('metrics on', 'on'), await side('metrics off', 'off')];
const paths = [
  () => '/sandbox/clock',
  (s: (typeof sides)[number]) => `/customers/${s.customerId}`,
  () => '/sandbox/events?limit=5',
];
const labels = ['`GET /v3/sandbox/clock`', '`GET /v3/customers/{id}`', '`GET /v3/sandbox/events?limit=5`'];
const cpu = paths.map(() => sides.map((): number[] => []));
const rps = paths.map(() => sides.map((): number[] => []));
const loadBefore = loadavg();
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const [p, path] of paths.entries()) {
      for (let k = 0; k < sides.length; k++) {
        const s = (round + k) % sides.length;
        const target = sides[s] as (typeof sides)[number];
        const result = await loadWithCpu(target.child, `${target.base}${path(target)}`, {
          seconds: ROUND_SECONDS,
          headers: target.headers,
        });
        if (result.non2xx > 0) throw new Error(`${target.label}: ${result.non2xx} non-2xx`);
        cpu[p]?.[s]?.push(result.cpuMicros);
        rps[p]?.[s]?.push(result.requestsPerSecond);
      }
    }
  }
} finally {
  for (const s of sides) s.child.kill();
}
console.log(
  `load before ${loadBefore.map((x) => x.toFixed(1)).join(' ')}, after ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
console.log('| request | CPU µs/request, metrics on | off | on ÷ off (median; per round) | req/s on / off |');
console.log('|---|---:|---:|---|---|');
for (const [p, label] of labels.entries()) {
  const [on, off] = cpu[p] as [number[], number[]];
  const per = on.map((x, i) => x / (off[i] ?? Number.NaN));
  const [rOn, rOff] = rps[p] as [number[], number[]];
  console.log(
    `| ${label} | ${median(on).toFixed(1)} | ${median(off).toFixed(1)} | **${median(per).toFixed(3)}** (${per.map((x) => x.toFixed(2)).join(', ')}) | ${formatNumber(median(rOn))} / ${formatNumber(median(rOff))} |`,
  );
}
