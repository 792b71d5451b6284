// Bytes the server allocates per request (V8 heap), clock read and customer read: each server runs
// with a young generation large enough that no garbage collection happens while N requests are
// answered, so the growth of the heap in use over them, ÷ N, is what they allocated. Rounds in
// which a collection ran anyway are discarded. `npx tsx bench/allocation.ts` (ROOT=<checkout> to
// measure another build; its dist/ must exist).
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchSession, buildDist, childHeap, load, median } from './support.js';

const ROOT = process.env.ROOT ?? fileURLToPath(new URL('..', import.meta.url));
const REQUESTS = 2000;

async function measure(script: string, env: Record<string, string>) {
  const child = fork(join(ROOT, script), [], {
    execArgv: ['--import', 'tsx', '--max-semi-space-size=256', '--min-semi-space-size=256'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...process.env, ...env },
    cwd: ROOT,
  });
  try {
    const port = await new Promise<number>((resolve) =>
      child.once('message', (m) => resolve((m as { port: number }).port)),
    );
    const base = `http://127.0.0.1:${port}/v3`;
    const session = script.includes('bare')
      ? { headers: undefined, customerId: 'cust_0123456789abcdef0123456789abcdef' }
      : await benchSession(base);
    const result: Record<string, number> = {};
    for (const [label, path] of [
      ['clock', '/sandbox/clock'],
      ['customer', `/customers/${session.customerId}`],
    ] as const) {
      await load(`${base}${path}`, { seconds: 2, headers: session.headers });
      const perRequest: number[] = [];
      for (let round = 0; round < 7; round++) {
        const before = await childHeap(child);
        const { default: autocannon } = await import('autocannon');
        await new Promise((resolve, reject) =>
          autocannon(
            { url: `${base}${path}`, amount: REQUESTS, connections: 8, headers: session.headers },
            (e, r) => (e ? reject(e) : resolve(r)),
          ),
        );
        const after = await childHeap(child);
        if (after.collections === before.collections) perRequest.push((after.heap - before.heap) / REQUESTS);
      }
      result[label] = perRequest.length > 0 ? median(perRequest) : Number.NaN;
    }
    return result;
  } finally {
    child.kill();
  }
}

if (process.env.ROOT === undefined) buildDist();
console.log('| server | bytes allocated per clock read | per customer read |');
console.log('|---|---:|---:|');
for (const [name, script, env] of [
  ['bare Hono', 'bench/servers/bare-hono.ts', {}],
  ['sandbox, default flags', 'bench/servers/sandbox.ts', { ACCESS_LOG: 'pretty', REQUEST_LOG_SIZE: '1000' }],
  ['sandbox, features off', 'bench/servers/sandbox.ts', { ACCESS_LOG: 'off', REQUEST_LOG_SIZE: '0' }],
] as const) {
  const r = await measure(script, env);
  console.log(
    `| ${name} | ${Math.round(r.clock ?? 0).toLocaleString('en-US')} | ${Math.round(r.customer ?? 0).toLocaleString('en-US')} |`,
  );
}
