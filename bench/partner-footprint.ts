// Memory per live partner, in isolation: one `serve` process (the production build, in memory,
// loopback), then STEP partners at a time, each with a lifetime of an hour (none expires during the
// run), a token and CUSTOMERS customers, up to STEPS × STEP live partners. After each step the
// server settles (3 s) and /metrics is scraped three times; the least RSS and heap in use of the
// three are kept (a scrape between two collections reads garbage). The slope of a least-squares
// line through the steps is the memory a live partner costs; its intercept is the process's own.
// The churn benchmark (bench/partner-churn.ts) shows that partners removed give it back.
//   npx tsx bench/partner-footprint.ts [--step 1000] [--steps 4] [--customers 3]
import { type ChildProcess, spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateCpf } from '../src/finance/cpf.js';
import { buildDist, call, freePort, partnerWithCustomers } from './support.js';

const { values: args } = parseArgs({
  options: {
    step: { type: 'string', default: '1000' },
    steps: { type: 'string', default: '4' },
    customers: { type: 'string', default: '3' },
  },
});
const STEP = Number(args.step);
const STEPS = Number(args.steps);
const CUSTOMERS = Number(args.customers);
const TOKEN = 'bench-metrics-token-0123456789';
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DEFAULT_BASIC = `Basic ${Buffer.from('cid_sandbox_default:svc_cs_test_sandbox_default_secret').toString('base64')}`;
const CPFS = Array.from({ length: CUSTOMERS }, (_, i) => generateCpf(String(710_000_000 + i)));

async function scrape(base: string): Promise<{ rss: number; heap: number; resident: number }> {
  const text = await (
    await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
  ).text();
  const read = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? Number.NaN);
  return {
    rss: read(/^process_resident_memory_bytes (\S+)$/m),
    heap: read(/^nodejs_heap_size_used_bytes (\S+)$/m),
    resident: read(/^credit_sandbox_partners\{state="resident"\} (\S+)$/m),
  };
}

async function settled(base: string) {
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const reads = [];
  for (let i = 0; i < 3; i++) {
    reads.push(await scrape(base));
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return {
    rss: Math.min(...reads.map((r) => r.rss)),
    heap: Math.min(...reads.map((r) => r.heap)),
    resident: reads[0]?.resident ?? Number.NaN,
  };
}

function slope(points: Array<[number, number]>): { perUnit: number; base: number } {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  const perUnit = sxy / sxx;
  return { perUnit, base: my - perUnit * mx };
}

async function main(): Promise<void> {
  if (!process.env.NO_BUILD) buildDist();
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [
      'dist/cli/main.js',
      'serve',
      ...['--port', String(port), '--host', '127.0.0.1', '--clock', 'frozen', '--rate-limit', '0'],
      ...['--log', 'off', '--partner-ttl', 'off', '--max-partners', 'off', '--metrics-token', TOKEN],
    ],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const base = `http://127.0.0.1:${port}`;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      const up = await fetch(`${base}/healthz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (up) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const bearer = (await call(base, 'POST', '/v3/auth/token', DEFAULT_BASIC)).access_token as string;
    const loadBefore = loadavg();
    const rows: Array<{ live: number; rss: number; heap: number; resident: number }> = [];
    rows.push({ live: 0, ...(await settled(base)) });
    let n = 0;
    for (let step = 1; step <= STEPS; step++) {
      const target = step * STEP;
      const worker = async () => {
        while (n < target) {
          const name = `footprint-${n++}`;
          await partnerWithCustomers(base, bearer, { name, expiresIn: 3600, cpfs: CPFS });
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
      rows.push({ live: n, ...(await settled(base)) });
    }
    const mb = (bytes: number) => (bytes / 1048576).toFixed(1);
    console.log(
      `partner footprint, ${new Date().toISOString()}: ${CUSTOMERS} customers each; load ${loadBefore
        .map((l) => l.toFixed(2))
        .join(' / ')} before, ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' / ')} after`,
    );
    console.log('| live partners | resident (metrics) | RSS MB | heap used MB |');
    console.log('|---:|---:|---:|---:|');
    for (const r of rows) console.log(`| ${r.live} | ${r.resident} | ${mb(r.rss)} | ${mb(r.heap)} |`);
    const rss = slope(rows.map((r) => [r.live, r.rss]));
    const heap = slope(rows.map((r) => [r.live, r.heap]));
    console.log(
      `per live partner: RSS ${(rss.perUnit / 1024).toFixed(1)} KB, heap ${(heap.perUnit / 1024).toFixed(1)} KB; ` +
        `the process alone: RSS ${mb(rss.base)} MB, heap ${mb(heap.base)} MB (least-squares intercepts)`,
    );
  } finally {
    child.kill('SIGTERM');
  }
}

await main();
