// What keeping every changed row's durable version (so a write the journal cannot save is rolled
// back, docs/storage.md) adds to writes under `--data`: (1) the store alone, rows inserted and
// replaced, change sets taken and settled, undo kept vs not; (2) `POST /v3/customers` through the
// app onto a real journal in a temporary directory, in two sandboxes of one process (undo kept vs
// not), CPU per request. Alternating rounds, medians. Run: `npx tsx bench/rollback-overhead.ts`.

import { execSync } from 'node:child_process';
import { createApp } from '../src/app.js';
import { createDeps } from '../src/deps.js';
import { ensureDefaultPartner } from '../src/domain/default-partner.js';
import { generateCpf } from '../src/finance/cpf.js';
import { DEFAULT_CONFIG } from '../src/http/deps.js';
import { sequentialIds } from '../src/lib/ids.js';
import { JournalPersistence } from '../src/store/journal/journal-persistence.js';
import { customerRow, tempDataFile } from '../src/store/journal/test-helpers.js';
import type { CustomerRecord } from '../src/store/records.js';
import { Store } from '../src/store/store.js';
import { formatNumber, median } from './support.js';

const ROUNDS = 20;
const ROWS = 20_000;
const REQUESTS = 200;

// The rows are made before the timed rounds (their seq from a store of their own).
const rowSeqs = new Store('bench-rows');
const inserted = Array.from({ length: ROWS }, (_, i) =>
  customerRow(rowSeqs, `cust_${i}`, 'ptn_bench', 'Ana'),
);
const replaced = inserted.map((row) => ({ ...row, name: 'Ana Maria' }));

/** CPU µs per row: insert, replace, take and settle the change set every 50 rows (rows made before). */
function storeRound(undo: boolean): number {
  const store = new Store('bench');
  store.trackChanges({ undo });
  const cpu = process.cpuUsage();
  for (let i = 0; i < ROWS; i++) {
    store.customers.insert(inserted[i] as CustomerRecord);
    store.customers.replace(replaced[i] as CustomerRecord);
    if (i % 50 === 49) store.settle(store.takeChangeSet());
  }
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / ROWS;
}

async function appSide(undo: boolean) {
  const store = new Store('bench');
  const { persistence } = await JournalPersistence.open(tempDataFile(), store);
  store.trackChanges({ undo });
  const deps = createDeps({
    store,
    persistence,
    ids: sequentialIds(),
    randomBytes: (size) => Buffer.alloc(size, 1),
    realNow: () => Date.parse('2026-03-02T12:00:00Z'),
    config: { ...DEFAULT_CONFIG, clockMode: 'frozen', rateLimit: 0, publicUrl: 'http://bench.test' },
    log: { info: () => {}, error: (m, e) => console.error(m, e) },
    webhookSender: async () => ({ statusCode: 200, retryAfter: null, body: '' }),
  });
  ensureDefaultPartner(deps, { clientId: 'cid_bench', clientSecret: 'svc_cs_test_bench' }, 'frozen');
  const app = createApp(deps);
  const basic = `Basic ${Buffer.from('cid_bench:svc_cs_test_bench').toString('base64')}`;
  const tokenRes = await app.request('/v3/auth/token', { method: 'POST', headers: { authorization: basic } });
  const token = ((await tokenRes.json()) as { access_token: string }).access_token;
  let next = undo ? 200_000_000 : 300_000_000;
  /** CPU µs per request over one round. */
  return async () => {
    const cpu = process.cpuUsage();
    for (let k = 0; k < REQUESTS; k++) {
      const res = await app.request('/v3/customers', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ cpf: generateCpf(String(next++)), name: `Cliente ${k}` }),
      });
      if (res.status !== 201) throw new Error(`POST /v3/customers -> ${res.status}`);
      await res.arrayBuffer();
    }
    const used = process.cpuUsage(cpu);
    return (used.user + used.system) / REQUESTS;
  };
}

const load = () =>
  execSync('uptime')
    .toString()
    .trim()
    .replace(/.*load average: /, '');

const loadBefore = load();
const store = { undo: [] as number[], plain: [] as number[] };
// Alternating, and which goes first alternating too (the second of a pair runs on a warmer heap).
for (let r = 0; r < ROUNDS; r++) {
  if (r % 2 === 0) store.plain.push(storeRound(false));
  store.undo.push(storeRound(true));
  if (r % 2 === 1) store.plain.push(storeRound(false));
}
const withUndo = await appSide(true);
const without = await appSide(false);
const app = { undo: [] as number[], plain: [] as number[] };
for (let r = 0; r < ROUNDS; r++) {
  if (r % 2 === 0) app.plain.push(await without());
  app.undo.push(await withUndo());
  if (r % 2 === 1) app.plain.push(await without());
}
const row = (name: string, values: { undo: number[]; plain: number[] }, unit: string) => {
  const u = median(values.undo);
  const p = median(values.plain);
  return `| ${name} | ${formatNumber(Math.round(p * 100) / 100)} | ${formatNumber(Math.round(u * 100) / 100)} | ${(u / p).toFixed(2)} | ${unit} |`;
};
console.log(
  [
    `Load average (1, 5, 15 min) before: ${loadBefore}; after: ${load()}. ${ROUNDS} alternating rounds, medians.`,
    '',
    '| CPU per | without undo | with undo | ratio | unit |',
    '|---|---:|---:|---:|---|',
    row(
      `customer row written (insert + replace, settled every 50; ${formatNumber(ROWS)} a round)`,
      store,
      'µs',
    ),
    row(`POST /v3/customers onto a journal (${REQUESTS} a round, in-process)`, app, 'µs'),
  ].join('\n'),
);
