// Machine instructions per request, counted by valgrind's callgrind: a measure of the work a
// request costs that another process's load cannot move (timings on a shared machine can). Each
// server runs under callgrind, is warmed, then its counters are zeroed, N requests of one path are
// sent (by this process, outside valgrind) and the counters dumped: instructions ÷ N. Counts only
// user-space instructions of the server (not the kernel's share, ~35 % of bare Hono's CPU).
// Slow (a server under valgrind runs ~50× slower): `npx tsx bench/instructions.ts` (env
// REQUESTS, default 3000; SERVERS=bare,defaults,off to choose; ROOT to measure another checkout).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { benchSession, buildDist } from './support.js';

const REQUESTS = Number(process.env.REQUESTS ?? 3000);
const WARM = 2000;
const ROOT = process.env.ROOT ?? fileURLToPath(new URL('..', import.meta.url));

const SERVERS: Record<string, { script: string; env: Record<string, string> }> = {
  bare: { script: 'bench/servers/bare-hono.ts', env: {} },
  defaults: { script: 'bench/servers/sandbox.ts', env: { ACCESS_LOG: 'pretty', REQUEST_LOG_SIZE: '1000' } },
  off: { script: 'bench/servers/sandbox.ts', env: { ACCESS_LOG: 'off', REQUEST_LOG_SIZE: '0' } },
};

function send(url: string, amount: number, headers?: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    autocannon({ url, amount, connections: 8, headers }, (error, result) => {
      if (error) reject(error);
      else if (result.non2xx > 0) reject(new Error(`${url}: ${result.non2xx} non-2xx`));
      else resolve();
    });
  });
}

/** Total instructions in the newest callgrind dump of `pid` under `dir`. */
function lastDumpTotal(dir: string, pid: number, count: number): number {
  const file = join(dir, `cg.${pid}.${count}`);
  const total = /^summary: (\d+)$/m.exec(readFileSync(file, 'utf8'))?.[1];
  if (!total) throw new Error(`no summary in ${file} (${readdirSync(dir).join(', ')})`);
  return Number(total);
}

async function measure(name: string): Promise<Record<string, number>> {
  const server = SERVERS[name];
  if (!server) throw new Error(`unknown server ${name}`);
  const dir = mkdtempSync(join(tmpdir(), 'callgrind-'));
  const child: ChildProcess = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--smc-check=all-non-file',
      `--callgrind-out-file=${dir}/cg.%p`,
      process.execPath,
      '--import',
      'tsx',
      join(ROOT, server.script),
    ],
    { cwd: ROOT, stdio: ['ignore', 'ignore', 'ignore', 'ipc'], env: { ...process.env, ...server.env } },
  );
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.once('message', (m) => resolve((m as { port: number }).port));
      child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
    });
    const base = `http://127.0.0.1:${port}/v3`;
    const session =
      name === 'bare'
        ? { headers: undefined, customerId: 'cust_0123456789abcdef0123456789abcdef' }
        : await benchSession(base);
    const paths = { clock: '/sandbox/clock', customer: `/customers/${session.customerId}` };
    const perRequest: Record<string, number> = {};
    let dumps = 0;
    for (const [label, path] of Object.entries(paths)) {
      await send(`${base}${path}`, WARM, session.headers);
      execFileSync('callgrind_control', ['-z', String(child.pid)], { stdio: 'ignore' });
      await send(`${base}${path}`, REQUESTS, session.headers);
      execFileSync('callgrind_control', ['-d', String(child.pid)], { stdio: 'ignore' });
      dumps += 1;
      perRequest[label] = lastDumpTotal(dir, child.pid as number, dumps) / REQUESTS;
    }
    return perRequest;
  } finally {
    child.kill();
  }
}

if (process.env.ROOT === undefined) buildDist();
const names = (process.env.SERVERS ?? 'bare,defaults,off').split(',');
const results = await Promise.all(names.map(async (name) => [name, await measure(name)] as const));
console.log(
  `| server | instructions per clock read | per customer read | (${REQUESTS} requests each, after ${WARM} to warm) |`,
);
console.log('|---|---:|---:|---|');
const bare = results.find(([name]) => name === 'bare')?.[1];
for (const [name, r] of results) {
  const vs = (key: string) => (bare?.[key] ? ` (${((r[key] ?? 0) / bare[key]).toFixed(2)}× bare)` : '');
  console.log(
    `| ${name} | ${Math.round(r.clock ?? 0).toLocaleString('en-US')}${vs('clock')} | ${Math.round(r.customer ?? 0).toLocaleString('en-US')}${vs('customer')} | |`,
  );
}
