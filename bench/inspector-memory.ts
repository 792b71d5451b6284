// The request inspector's memory bound: 1,000 `POST /v3/customers` with a 15 MiB `name` (each
// answered 400) against the built sandbox with the log on (1,000 entries per partner), its RSS
// read from /proc before, during and after; then the size of `GET /v3/sandbox/requests` pages.
// Before bodies were truncated, 45 such requests took RSS from 122 MB to 948 MB and rising.
// Run alone: `npx tsx bench/inspector-memory.ts` (or as part of `npm run bench`). 15 GB cross the
// loopback: minutes on an idle machine.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { benchSession, buildDist, startChild } from './support.js';

/** 1,000 as the bound is stated; `INSPECTOR_MEMORY_REQUESTS` runs fewer on a slow machine. */
const REQUESTS = Number(process.env.INSPECTOR_MEMORY_REQUESTS ?? 1000);
const BODY_MIB = 15;
/** At most this many concurrent requests (the body is one shared buffer on the client side). */
const CONCURRENCY = 2;
/** The documented bound (README, docs/inspector.md): RSS after the run stays below this. */
const RSS_LIMIT_MB = 400;
/** A page of 100 entries stays below this (each body kept to 4,096 characters). */
const PAGE_LIMIT_KB = 1024;

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return Math.round(kb / 1024);
}

export async function run(): Promise<{ name: string; markdown: string; ok: boolean }> {
  buildDist();
  const { port, child } = await startChild('./servers/sandbox.ts', { REQUEST_LOG_SIZE: '1000' });
  const pid = child.pid as number;
  try {
    const base = `http://127.0.0.1:${port}/v3`;
    const { headers } = await benchSession(base);
    const before = rssMb(pid);
    const body = Buffer.from(`{"cpf":"529.982.247-25","name":"${'a'.repeat(BODY_MIB * 1024 * 1024)}"}`);
    const statuses = new Map<number, number>();
    const samples: number[] = [];
    let peak = before;
    let sent = 0;
    const started = performance.now();
    const worker = async () => {
      while (sent < REQUESTS) {
        sent++;
        let status: number;
        try {
          const res = await fetch(`${base}/customers`, {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            body,
          });
          await res.arrayBuffer();
          status = res.status;
        } catch {
          // The server's request timeout (10 s) cut an upload that a loaded machine sent too slowly.
          status = 0;
        }
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        const rss = rssMb(pid);
        peak = Math.max(peak, rss);
        if (sent % 100 === 0) {
          samples.push(rss);
          console.error(`inspector-memory: ${sent} requests, RSS ${rss} MB`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const seconds = (performance.now() - started) / 1000;
    const after = rssMb(pid);
    const pageBytes = async (limit: number) =>
      (await (await fetch(`${base}/sandbox/requests?limit=${limit}`, { headers })).arrayBuffer()).byteLength;
    const page1 = await pageBytes(1);
    const page100 = await pageBytes(100);
    const ok = after <= RSS_LIMIT_MB && page100 <= PAGE_LIMIT_KB * 1024;
    const markdown = [
      `${REQUESTS} × \`POST /v3/customers\` with a ${BODY_MIB} MiB \`name\` (${CONCURRENCY} at a time, ${Math.round(seconds)} s; answers: ${[...statuses].map(([s, n]) => `${n} × ${s || 'cut by the request timeout'}`).join(', ')}), request log on (1,000 per partner):`,
      '',
      '| measure | value | bound |',
      '|---|---|---|',
      `| RSS before | ${before} MB | |`,
      `| RSS every 100 requests | ${samples.join(', ')} MB | |`,
      `| RSS peak (read after each answer) | ${peak} MB | |`,
      `| RSS after | ${after} MB | ≤ ${RSS_LIMIT_MB} MB |`,
      `| \`GET /v3/sandbox/requests?limit=1\` | ${(page1 / 1024).toFixed(1)} KB | |`,
      `| \`GET /v3/sandbox/requests?limit=100\` | ${(page100 / 1024).toFixed(1)} KB | ≤ ${PAGE_LIMIT_KB} KB |`,
      '',
      ok ? 'Within the documented bounds.' : '**Outside the documented bounds.**',
    ].join('\n');
    return { name: 'Request inspector memory bound', markdown, ok };
  } finally {
    child.kill();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await run();
  console.log(`## ${result.name}\n\n${result.markdown}`);
  if (!result.ok) process.exitCode = 1;
}
