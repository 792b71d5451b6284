// The validating proxy's cost (issue 36): the same read-heavy mix sent to the sandbox directly,
// through a plain forwarder (node:http + undici and nothing else: the floor any Node proxy pays) and
// through `credit-sandbox proxy` (every exchange validated against the OpenAPI document and recorded),
// in rotating rounds of the same run:
//   - throughput under load (autocannon, 16 connections): × direct, target >= 0.8;
//   - latency one request at a time over a kept-alive connection: median added, target <= 1 ms;
//   - each forwarder's CPU per request beside the sandbox's (a figure the machine's load disturbs less);
//   - memory: the proxy's resident set while 64 MiB, then 256 MiB, stream down and up through it.
// The machine's load (`uptime`) is printed beside the figures. Run: `npm run bench:proxy`
// (env ROUNDS, ROUND_SECONDS, SEQUENTIAL).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { Pool } from 'undici';
import { benchSession, buildDist, childCpuMicros, formatNumber, median, startChild } from './support.js';

const ROUNDS = Number(process.env.ROUNDS ?? 6);
const ROUND_SECONDS = Number(process.env.ROUND_SECONDS ?? 3);
const SEQUENTIAL = Number(process.env.SEQUENTIAL ?? 400);
const THROUGHPUT_TARGET = 0.8;
const LATENCY_TARGET_MS = 1;
const STREAM_MIB = 256;

type Request = { method: 'GET' | 'POST'; path: string; headers: Record<string, string>; body?: string };

/** Nine reads to one write: a customer, lists, the clock, offers, loans; the write a retried registration (200). */
function mix(prefix: string, headers: Record<string, string>, customerId: string): Request[] {
  const get = (path: string): Request => ({ method: 'GET', path: `${prefix}${path}`, headers });
  return [
    get(`/customers/${customerId}`),
    get('/customers?limit=10'),
    get('/sandbox/clock'),
    get(`/customers/${customerId}/credit-offers`),
    get(`/customers/${customerId}`),
    get('/loans?limit=10'),
    get('/customers?limit=10'),
    get('/sandbox/clock'),
    get(`/customers/${customerId}`),
    {
      method: 'POST',
      path: `${prefix}/customers`,
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ cpf: '529.982.247-25', name: 'Bench Customer', email: 'bench@example.com' }),
    },
  ];
}

async function throughput(origin: string, requests: Request[]): Promise<{ rps: number; errors: number }> {
  const result = await autocannon({
    url: origin,
    requests,
    duration: ROUND_SECONDS,
    connections: 16,
    pipelining: 1,
  });
  return { rps: result.requests.average, errors: result.non2xx + result.errors };
}

/** Milliseconds per request, one at a time over one kept-alive connection. */
async function sequential(
  origin: string,
  path: string,
  headers: Record<string, string>,
  n: number,
): Promise<number[]> {
  const pool = new Pool(origin, { connections: 1 });
  const times: number[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const started = performance.now();
      const answer = await pool.request({ method: 'GET', path, headers });
      await answer.body.text();
      times.push(performance.now() - started);
    }
  } finally {
    await pool.close();
  }
  return times;
}

function ask<T>(child: import('node:child_process').ChildProcess, question: string, key: string): Promise<T> {
  return new Promise((resolve) => {
    const on = (message: unknown) => {
      const value = (message as Record<string, unknown> | null)?.[key];
      if (value === undefined) return;
      child.off('message', on);
      resolve(message as T);
    };
    child.on('message', on);
    child.send(question);
  });
}

async function memory(mib: number): Promise<{ baseline: number; peak: number; down: number; up: number }> {
  const bytes = await startChild('./servers/byte-upstream.ts');
  const document = join(mkdtempSync(join(tmpdir(), 'proxy-bench-')), 'openapi.json');
  writeFileSync(document, JSON.stringify({ openapi: '3.1.0', paths: {} }));
  const proxy = await startChild('./servers/proxy.ts', {
    UPSTREAM: `http://127.0.0.1:${bytes.port}/v3`,
    OPENAPI: document,
  });
  try {
    const rss = async () => (await ask<{ rss: number }>(proxy.child, 'mem', 'rss')).rss;
    const baseline = await rss();
    let peak = baseline;
    const sampler = setInterval(() => void rss().then((value) => (peak = Math.max(peak, value))), 50);
    const pool = new Pool(`http://127.0.0.1:${proxy.port}`, { connections: 1 });
    const answer = await pool.request({ method: 'GET', path: `/v3/bytes?mib=${mib}` });
    let down = 0;
    for await (const chunk of answer.body) down += (chunk as Buffer).length;
    const chunk = Buffer.alloc(1024 * 1024, 3);
    async function* upload() {
      for (let i = 0; i < mib; i++) yield chunk;
    }
    const sent = await pool.request({ method: 'POST', path: '/v3/bytes', body: Readable.from(upload()) });
    const up = ((await sent.body.json()) as { size: number }).size;
    clearInterval(sampler);
    peak = Math.max(peak, await rss());
    await pool.close();
    return { baseline, peak, down, up };
  } finally {
    proxy.child.kill();
    bytes.child.kill();
  }
}

interface Side {
  label: string;
  origin: string;
  child?: import('node:child_process').ChildProcess;
  rps: number[];
  times: number[];
  /** CPU µs per request of the forwarder, and of the sandbox behind it, per round. */
  cpu: number[];
  sandboxCpu: number[];
}

export async function run(): Promise<{ name: string; markdown: string; ok: boolean }> {
  buildDist();
  const load = () =>
    execFileSync('uptime', { encoding: 'utf8' })
      .trim()
      .replace(/^.*load average/, 'load average');
  const sandbox = await startChild('./servers/sandbox.ts', { ACCESS_LOG: 'off' });
  const upstream = `http://127.0.0.1:${sandbox.port}/v3`;
  const record = join(mkdtempSync(join(tmpdir(), 'proxy-bench-')), 'bench.ndjson');
  const proxy = await startChild('./servers/proxy.ts', { UPSTREAM: upstream, RECORD: record });
  const plain = await startChild('./servers/plain-forwarder.ts', { UPSTREAM: upstream });
  const loadBefore = load();
  try {
    const { headers, customerId } = await benchSession(upstream);
    const side = (label: string, port: number, child?: Side['child']): Side => ({
      label,
      origin: `http://127.0.0.1:${port}`,
      child,
      rps: [],
      times: [],
      cpu: [],
      sandboxCpu: [],
    });
    const sides = [
      side('direct', sandbox.port),
      side('plain forwarder (floor)', plain.port, plain.child),
      side('`credit-sandbox proxy`', proxy.port, proxy.child),
    ];
    const requests = mix('/v3', headers, customerId);
    for (const s of sides) await throughput(s.origin, requests);
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < sides.length; k++) {
        const s = sides[(round + k) % sides.length]!;
        const before = s.child ? [await childCpuMicros(s.child), await childCpuMicros(sandbox.child)] : [];
        const result = await throughput(s.origin, requests);
        if (result.errors > 0) throw new Error(`${s.label}: ${result.errors} errors or non-2xx`);
        s.rps.push(result.rps);
        if (s.child) {
          const answered = result.rps * ROUND_SECONDS;
          s.cpu.push(((await childCpuMicros(s.child)) - before[0]!) / answered);
          s.sandboxCpu.push(((await childCpuMicros(sandbox.child)) - before[1]!) / answered);
        }
        s.times.push(...(await sequential(s.origin, `/v3/customers/${customerId}`, headers, SEQUENTIAL)));
      }
    }
    const [direct, , mine] = sides as [Side, Side, Side];
    const ratios = (s: Side) => s.rps.map((value, i) => value / direct.rps[i]!);
    const ratio = median(ratios(mine));
    const added = (s: Side) => median(s.times) - median(direct.times);
    const cpuRatio = (s: Side) => median(s.cpu.map((c, i) => c / s.sandboxCpu[i]!));
    const small = await memory(64);
    const large = await memory(STREAM_MIB);
    const mib = (n: number) => (n / 1024 / 1024).toFixed(1);
    const ok = ratio >= THROUGHPUT_TARGET && added(mine) <= LATENCY_TARGET_MS;
    const row = (s: Side) =>
      `| ${s.label} | ${formatNumber(median(s.rps))} | ${
        s === direct
          ? ''
          : `**${median(ratios(s)).toFixed(2)}** (${ratios(s)
              .map((r) => r.toFixed(2))
              .join(', ')})`
      } | ${median(s.times).toFixed(3)} | ${s === direct ? '' : `+${added(s).toFixed(3)}`} | ${s.child ? `${median(s.cpu).toFixed(0)} (${cpuRatio(s).toFixed(2)} × the sandbox's ${median(s.sandboxCpu).toFixed(0)})` : ''} |`;
    const markdown = [
      `${new Date().toISOString().slice(0, 10)}, Node ${process.version}, machine ${loadBefore} at the start, ${load()} at the end. The sandbox's production build (\`dist/\`, access log off); \`credit-sandbox proxy\` from \`dist/\` with every exchange validated and recorded; a plain forwarder (node:http + undici, nothing else: bench/servers/plain-forwarder.ts) as the floor any Node proxy pays; each in its own process. ${ROUNDS} rounds, the three sides in rotating order. Read-heavy mix: 9 reads (a customer, lists, the clock, offers, loans) to 1 write (a retried registration), 16 connections, ${ROUND_SECONDS} s each; latency: \`GET /v3/customers/{id}\` one at a time over a kept-alive connection (${SEQUENTIAL} per round).`,
      '',
      '| side | req/s (median) | × direct (median; per round) | ms one at a time (median) | added ms | forwarder CPU µs per request (median) |',
      '|---|---:|---|---:|---:|---|',
      ...sides.map(row),
      '',
      `Targets for \`credit-sandbox proxy\`: throughput >= ${THROUGHPUT_TARGET} × direct — ${ratio >= THROUGHPUT_TARGET ? 'met' : 'MISSED'}; added latency <= ${LATENCY_TARGET_MS} ms at the median — ${added(mine) <= LATENCY_TARGET_MS ? 'met' : 'MISSED'}.`,
      '',
      `Memory (the proxy's resident set while bodies stream through it, validation copies bounded at 1 MiB each): ${mib(small.down)} MiB down and ${mib(small.up)} MiB up: ${mib(small.baseline)} → at most ${mib(small.peak)} MiB (+${mib(small.peak - small.baseline)}); ${mib(large.down)} MiB down and ${mib(large.up)} MiB up: ${mib(large.baseline)} → at most ${mib(large.peak)} MiB (+${mib(large.peak - large.baseline)}).`,
    ].join('\n');
    return { name: 'Validating proxy overhead (wave 4, issue 36)', markdown, ok };
  } finally {
    proxy.child.kill();
    plain.child.kill();
    sandbox.child.kill();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await run();
  console.log(`## ${result.name}\n\n${result.markdown}`);
  process.exit(result.ok ? 0 : 1);
}
