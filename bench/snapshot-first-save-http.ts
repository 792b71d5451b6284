// The first snapshot save as a partner's test suite meets it: the compiled server (dist/, as the
// Docker image runs it) in its own process, a partner of 1,000 customers with 200 active loans
// seeded over HTTP on loopback (200 happy-path scenario runs, 800 registrations), then
// `POST /v3/sandbox/snapshots` at once: wall time at the client. In memory, then with `--data`.
// Run: `npm run bench:snapshots-http` (about a minute).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCpf } from '../src/finance/cpf.js';
import { buildDist, call, median, startChild } from './support.js';

const TARGET_MS = 50;

async function bearer(base: string, clientId: string, secret: string): Promise<string> {
  const basic = `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;
  return `Bearer ${(await call(base, 'POST', '/v3/auth/token', basic)).access_token}`;
}

/** One fresh server (in memory, or with `--data` in a new file): seed a partner, then time its first save. */
async function once(round: number, data: boolean) {
  const dir = data ? mkdtempSync(join(tmpdir(), 'bench-snapshot-')) : '';
  const { port, child } = data
    ? await startChild('servers/sandbox-data.ts', { DATA_FILE: join(dir, 'sandbox.json') })
    : await startChild('servers/sandbox.ts', { ACCESS_LOG: 'off' });
  try {
    const base = `http://127.0.0.1:${port}`;
    const admin = await bearer(base, 'cid_bench', 'svc_cs_test_bench');
    const partner = await call(base, 'POST', '/v3/sandbox/partners', admin, {
      name: 'suite',
      clock: 'frozen',
    });
    const id = String(partner.client_id);
    const secret = String(partner.client_secret);
    let auth = await bearer(base, id, secret);
    const offset = 700_000_000 + round * 10_000;
    for (let k = 0; k < 200; k++) {
      await call(base, 'POST', '/v3/sandbox/scenarios/happy-path/runs', auth, {
        params: { cpf: generateCpf(String(offset + k)) },
      });
      // The scenario moves the clock; a fresh token now and then keeps within its hour.
      if (k % 20 === 19) auth = await bearer(base, id, secret);
    }
    for (let k = 200; k < 1000; k++) {
      await call(base, 'POST', '/v3/customers', auth, {
        cpf: generateCpf(String(offset + k)),
        name: `Customer ${k}`,
      });
    }
    // The save follows the last registration at once, as a suite's `beforeAll` would send it.
    const start = performance.now();
    const saved = await call(base, 'POST', '/v3/sandbox/snapshots', auth, { name: 'baseline' });
    const wall = performance.now() - start;
    const rows = Object.values(saved.counts as Record<string, number>).reduce((a, b) => a + b, 0);
    return { wall, rows, bytes: Number(saved.bytes) };
  } finally {
    child.kill();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

export async function run() {
  buildDist();
  const memory = [await once(0, false), await once(1, false), await once(2, false)];
  const data = [await once(3, true), await once(4, true)];
  const wall = median(memory.map((r) => r.wall));
  const first = memory[0] as (typeof memory)[number];
  const markdown = [
    `Compiled server in its own process, partner seeded over HTTP on loopback (${first.rows.toLocaleString('en-US')} rows, ${(first.bytes / 1024 / 1024).toFixed(1)} MiB as JSON), then its first save; a fresh server each run.`,
    '',
    '| store | first save per run, wall ms at the client |',
    '|---|---|',
    `| in memory (the default) | ${memory.map((r) => r.wall.toFixed(1)).join(' / ')} |`,
    `| \`--data\` (the save is acknowledged once the journal holds it: the whole world written) | ${data.map((r) => r.wall.toFixed(1)).join(' / ')} |`,
    '',
    `In memory, median ${wall.toFixed(1)} ms (target <= ${TARGET_MS} ms: ${wall <= TARGET_MS ? 'met' : 'MISSED'}).`,
  ].join('\n');
  return { name: 'First snapshot save over HTTP', markdown, ok: wall <= TARGET_MS };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await run();
  console.log(`## ${result.name}\n\n${result.markdown}`);
}
