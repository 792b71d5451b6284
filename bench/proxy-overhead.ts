// The validating proxy's cost (issue 36): the same read-heavy mix sent to the sandbox directly and
// through `credit-sandbox proxy` (every exchange validated against the OpenAPI document and recorded),
// in alternating rounds of the same run:
//   - throughput under load (autocannon, 16 connections): proxy ÷ direct, target >= 0.8;
//   - latency one request at a time over a kept-alive connection: median added, target <= 1 ms;
//   - memory: the proxy's resident set while 256 MiB stream down and 256 MiB up through it.
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
import { benchSession, buildDist, formatNumber, median, startChild } from './support.js';

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

async function memory(): Promise<{ baseline: number; peak: number; down: number; up: number }> {
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
    const answer = await pool.request({ method: 'GET', path: `/v3/bytes?mib=${STREAM_MIB}` });
    let down = 0;
    for await (const chunk of answer.body) down += (chunk as Buffer).length;
    const chunk = Buffer.alloc(1024 * 1024, 3);
    async function* upload() {
      for (let i = 0; i < STREAM_MIB; i++) yield chunk;
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

export async function run(): Promise<{ name: string; markdown: string; ok: boolean }> {
  buildDist();
  const load = () =>
    execFileSync('uptime', { encoding: 'utf8' })
      .trim()
      .replace(/^.*load average/, 'load average');
  const sandbox = await startChild('./servers/sandbox.ts', { ACCESS_LOG: 'off' });
  const record = join(mkdtempSync(join(tmpdir(), 'proxy-bench-')), 'bench.ndjson');
  const proxy = await startChild('./servers/proxy.ts', {
    UPSTREAM: `http://127.0.0.1:${sandbox.port}/v3`,
    RECORD: record,
  });
  const loadBefore = load();
  try {
    const { headers, customerId } = await benchSession(`http://127.0.0.1:${sandbox.port}/v3`);
    const sides = [
      { label: 'direct', origin: `http://127.0.0.1:${sandbox.port}` },
      { label: 'through the proxy', origin: `http://127.0.0.1:${proxy.port}` },
    ];
    const requests = mix('/v3', headers, customerId);
    for (const side of sides) await throughput(side.origin, requests);
    const rps: number[][] = [[], []];
    const times: number[][] = [[], []];
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < 2; k++) {
        const s = (round + k) % 2;
        const result = await throughput(sides[s]!.origin, requests);
        if (result.errors > 0) throw new Error(`${sides[s]!.label}: ${result.errors} errors or non-2xx`);
        rps[s]!.push(result.rps);
        times[s]!.push(
          ...(await sequential(sides[s]!.origin, `/v3/customers/${customerId}`, headers, SEQUENTIAL)),
        );
      }
    }
    const ratios = rps[1]!.map((value, i) => value / rps[0]![i]!);
    const ratio = median(ratios);
    const added = median(times[1]!) - median(times[0]!);
    const mem = await memory();
    const mib = (n: number) => (n / 1024 / 1024).toFixed(1);
    const ok = ratio >= THROUGHPUT_TARGET && added <= LATENCY_TARGET_MS;
    const markdown = [
      `${new Date().toISOString().slice(0, 10)}, Node ${process.version}, machine ${loadBefore} at the start, ${load()} at the end. The sandbox's production build (\`dist/\`, access log off) and the proxy's (every exchange validated and recorded), each in its own process; ${ROUNDS} alternating rounds.`,
      '',
      '| | direct | through the proxy | proxy ÷ direct (median; per round) | target |',
      '|---|---:|---:|---|---|',
      `| read-heavy mix (9 reads : 1 write), 16 connections, req/s (median of ${ROUND_SECONDS} s rounds) | ${formatNumber(median(rps[0]!))} | ${formatNumber(median(rps[1]!))} | **${ratio.toFixed(2)}** (${ratios.map((r) => r.toFixed(2)).join(', ')}) | >= ${THROUGHPUT_TARGET} ${ratio >= THROUGHPUT_TARGET ? 'met' : 'MISSED'} |`,
      `| \`GET /v3/customers/{id}\` one at a time, ms (median of ${times[0]!.length}) | ${median(times[0]!).toFixed(3)} | ${median(times[1]!).toFixed(3)} | **+${added.toFixed(3)} ms** | <= ${LATENCY_TARGET_MS} ms ${added <= LATENCY_TARGET_MS ? 'met' : 'MISSED'} |`,
      '',
      `Memory: ${mib(mem.down)} MiB streamed down and ${mib(mem.up)} MiB up through the proxy (validation copies bounded at 1 MiB each): its resident set went from ${mib(mem.baseline)} MiB to at most ${mib(mem.peak)} MiB (+${mib(mem.peak - mem.baseline)} MiB).`,
    ].join('\n');
    return { name: 'Validating proxy overhead (wave 4, issue 36)', markdown, ok };
  } finally {
    proxy.child.kill();
    sandbox.child.kill();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await run();
  console.log(`## ${result.name}\n\n${result.markdown}`);
  process.exit(result.ok ? 0 : 1);
}
