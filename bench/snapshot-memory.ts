// The instance's snapshot bound under compressible imports (issue 40, finding 4): 8 partners each
// import 4 maximal compressible worlds (about 15.5 MiB of JSON each, a few KB gzipped) against
// the built sandbox with the default `--max-snapshot-bytes-total` (128 MiB), its RSS read from
// /proc before, after every import and at the end. Two kinds of world: a few rows with 1 MiB
// strings (the best compression) and many small rows (the most objects per byte).
// Run alone: `npx tsx bench/snapshot-memory.ts` (or `npm run bench:snapshot-memory`).
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { request } from 'undici';
import { generateCpf } from '../src/finance/cpf.js';
import { buildDist, startChild } from './support.js';

const PARTNERS = 8;
const IMPORTS_EACH = 4;
const WORLD_BYTES = 15.5 * 1024 * 1024;
/** The documented default bound (docs/snapshots.md). */
const BOUND = 128 * 1024 * 1024;
/** Documented: RSS grows at most this many times the bytes the instance keeps, plus the base. */
const RSS_FACTOR = { strings: 3, rows: 5 } as const;

/** The server's V8 heap in use, in MB (asked over the IPC channel; see servers/answer-cpu.ts). */
function heapMb(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const onMessage = (message: unknown) => {
      const heap = (message as { heap?: number } | null)?.heap;
      if (heap === undefined) return;
      child.off('message', onMessage);
      resolve(Math.round(heap / 2 ** 20));
    };
    child.on('message', onMessage);
    child.send('heap');
  });
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024);
}

const NOW = '2026-03-02T12:00:00.000Z';
/** As long as the importing partners' ids, so the world is as big once it is theirs. */
const SOURCE = `ptn_${'0'.repeat(32)}`;

/** A world of 15 idempotency keys whose cached answers are 1 MiB of one letter: ~15.5 MiB, a few KB gzipped. */
function stringWorld(source: string, name: string): object {
  const body = 'a'.repeat(1024 * 1024);
  const idempotency = Array.from({ length: Math.floor(WORLD_BYTES / (1024 * 1024)) }, (_, i) => ({
    id: `${source} key-${i}`,
    seq: i + 1,
    partner_id: source,
    operation: 'POST /v3/customers',
    status: 201,
    headers: { 'content-type': 'application/json' },
    body,
    expires_at_ms: Date.parse(NOW) + 86_400_000,
  }));
  return document(source, name, { idempotency });
}

/** A world of ~15.5 MiB of customers that differ only in id and CPF (ids unique per import). */
function rowWorld(source: string, name: string, unique: number): object {
  const customers: object[] = [];
  let bytes = 0;
  for (let i = 0; bytes < WORLD_BYTES; i++) {
    const n = unique * 100_000 + i;
    const row = {
      id: `cust_${n.toString(16).padStart(32, '0')}`,
      seq: i + 1,
      partner_id: source,
      status: 'pending_kyc',
      cpf: generateCpf(String(100_000_000 + i)),
      cnpj: null,
      name: 'Maria da Silva Santos Oliveira',
      email: 'maria.silva@example.com',
      phone: '+5511987654321',
      trading_name: null,
      external_id: null,
      kyc: [],
      review_job_id: null,
      created_at: NOW,
      updated_at: NOW,
    };
    bytes += JSON.stringify(row).length + 1;
    customers.push(row);
  }
  return document(source, name, { customers });
}

function document(source: string, name: string, tables: Record<string, object[]>): object {
  return {
    format: 'credit-sandbox-snapshot',
    version: 1,
    partner: source,
    name,
    saved_at: NOW,
    clock: { now: NOW, frozen: true },
    random_draws: null,
    tables,
  };
}

async function partnerTokens(base: string): Promise<string[]> {
  const basic = Buffer.from('cid_bench:svc_cs_test_bench').toString('base64');
  const token = async (auth: string) =>
    (
      (await (
        await fetch(`${base}/auth/token`, { method: 'POST', headers: { authorization: auth } })
      ).json()) as {
        access_token: string;
      }
    ).access_token;
  const admin = await token(`Basic ${basic}`);
  const tokens: string[] = [];
  for (let i = 0; i < PARTNERS; i++) {
    const res = await fetch(`${base}/sandbox/partners`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `bench-${i}` }),
    });
    const created = (await res.json()) as { client_id: string; client_secret: string };
    tokens.push(
      await token(`Basic ${Buffer.from(`${created.client_id}:${created.client_secret}`).toString('base64')}`),
    );
  }
  return tokens;
}

async function measure(kind: 'strings' | 'rows'): Promise<{ lines: string[]; ok: boolean }> {
  const { port, child } = await startChild('./servers/sandbox.ts', { REQUEST_LOG_SIZE: '1000' });
  const pid = child.pid as number;
  try {
    const base = `http://127.0.0.1:${port}/v3`;
    // Every document made and compressed before the first request: making one holds the client's
    // event loop for a while, long enough for a kept-alive connection to be closed as idle.
    const documents = Array.from({ length: PARTNERS }, (_, p) =>
      Array.from({ length: IMPORTS_EACH }, (_, i) =>
        gzipSync(
          JSON.stringify(
            kind === 'strings' ? stringWorld(SOURCE, `w${i}`) : rowWorld(SOURCE, `w${i}`, p * 10 + i),
          ),
        ),
      ),
    );
    const gzBytes = documents[0]?.[0]?.byteLength ?? 0;
    const tokens = await partnerTokens(base);
    const before = rssMb(pid);
    let peak = before;
    const statuses = new Map<number, number>();
    const details = new Map<number, string>();
    const started = performance.now();
    // Every partner at once, each its 4 imports one after the other.
    await Promise.all(
      tokens.map(async (token, p) => {
        for (let i = 0; i < IMPORTS_EACH; i++) {
          const gz = documents[p]?.[i] as Buffer;
          // A connection of its own per import (closed after its answer).
          const res = await request(`${base}/sandbox/snapshots/import`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/gzip' },
            body: gz,
            reset: true,
            // Imports wait their turn (one at a time per instance): minutes, on a loaded machine.
            headersTimeout: 0,
            bodyTimeout: 0,
          });
          const answer = await res.body.text();
          const status = res.statusCode;
          if (status !== 201 && !details.has(status)) details.set(status, answer.slice(0, 300));
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          peak = Math.max(peak, rssMb(pid));
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    let held = 0;
    for (const token of tokens) {
      const list = (await (
        await fetch(`${base}/sandbox/snapshots`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as {
        data: { bytes: number }[];
      };
      held += list.data.reduce((sum, s) => sum + s.bytes, 0);
    }
    const after = rssMb(pid);
    const heap = await heapMb(child);
    const limit = Math.round(before + (RSS_FACTOR[kind] * BOUND) / 2 ** 20);
    const ok = held <= BOUND && peak <= limit;
    const lines = [
      `| ${kind === 'strings' ? '15 rows of 1 MiB strings' : 'small rows (customers)'} | ${(gzBytes / 1024).toFixed(0)} KB | ${[...statuses].map(([s, n]) => `${n} × ${s}`).join(', ')} | ${(held / 2 ** 20).toFixed(1)} MiB | ${before} MB | ${peak} MB | ${after} MB (heap ${heap} MB) | ≤ ${limit} MB (base + ${RSS_FACTOR[kind]} × bound) | ${Math.round(seconds)} s |`,
    ];
    for (const [status, detail] of details) if (status !== 507) lines.push(`\n(${status}: ${detail})\n`);
    return { lines, ok };
  } finally {
    child.kill();
  }
}

export async function run(): Promise<{ name: string; markdown: string; ok: boolean }> {
  buildDist();
  const strings = await measure('strings');
  const rows = await measure('rows');
  const markdown = [
    `${PARTNERS} partners, each importing ${IMPORTS_EACH} worlds of ~15.5 MiB of JSON (gzipped), all partners at once; default \`--max-snapshot-bytes-total\` (128 MiB). RSS of the server process from /proc:`,
    '',
    '| world | gzipped | answers | snapshot bytes kept | RSS before | RSS peak | RSS after | bound | time |',
    '|---|---|---|---|---|---|---|---|---|',
    ...strings.lines,
    ...rows.lines,
    '',
    strings.ok && rows.ok ? 'Within the documented bounds.' : '**Outside the documented bounds.**',
  ].join('\n');
  return {
    name: 'Snapshot imports against the instance bound (issue 40)',
    markdown,
    ok: strings.ok && rows.ok,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await run();
  console.log(`## ${result.name}\n\n${result.markdown}`);
  if (!result.ok) process.exitCode = 1;
}
