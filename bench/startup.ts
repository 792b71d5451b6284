// Start-up to the first 200 on /healthz: `node dist/cli/main.js serve` (the Docker image's command)
// spawned, /healthz polled every 5 ms; reports the wall time and the process's CPU time (user +
// system, from /proc: less moved by other processes' load than the wall time) at that moment.
// Alternates between this checkout and ROOT_BEFORE (other checkouts with their own dist/), if set.
// `npx tsx bench/startup.ts` (env RUNS, default 5).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildDist, freePort, median } from './support.js';

const RUNS = Number(process.env.RUNS ?? 5);
const TICKS_PER_SECOND = 100;

async function once(root: string): Promise<{ wallMs: number; cpuMs: number }> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ['dist/cli/main.js', 'serve', '--port', String(port), '--host', '127.0.0.1'],
    {
      cwd: root,
      stdio: 'ignore',
    },
  );
  try {
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/healthz`);
        if (res.status === 200) break;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
    const wallMs = performance.now() - started;
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    const cpuMs = ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
    return { wallMs, cpuMs };
  } finally {
    child.kill();
  }
}

buildDist();
const roots: [string, string][] = [['this checkout', fileURLToPath(new URL('..', import.meta.url))]];
// ROOT_BEFORE may list several checkouts, comma-separated (e.g. wave 1's and main's): each is a row.
for (const root of (process.env.ROOT_BEFORE ?? '').split(',').filter(Boolean).reverse()) {
  roots.unshift([`before: ${root}`, root]);
}
const results = roots.map(() => [] as { wallMs: number; cpuMs: number }[]);
for (let run = 0; run < RUNS; run++) {
  for (const [i, [, root]] of roots.entries()) results[i]?.push(await once(root));
}
console.log('| build | wall ms to first 200 (median; runs) | CPU ms at that moment (median; runs) |');
console.log('|---|---|---|');
for (const [i, [label]] of roots.entries()) {
  const r = results[i] ?? [];
  const list = (key: 'wallMs' | 'cpuMs') => r.map((x) => Math.round(x[key])).join(', ');
  console.log(
    `| ${label} | ${Math.round(median(r.map((x) => x.wallMs)))} (${list('wallMs')}) | ${Math.round(median(r.map((x) => x.cpuMs)))} (${list('cpuMs')}) |`,
  );
}
