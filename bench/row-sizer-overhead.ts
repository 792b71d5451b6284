// What measuring rows while the event loop is idle (`IdleRowSizer`, which makes a first snapshot
// save cheap) adds to the CPU of writes: `POST /v3/customers` in-process through the app, one
// event-loop turn between requests as an HTTP server has, in two sandboxes of one process (rows
// measured when idle, and not), alternating rounds. Then the queue's bound: 200,000 rows written
// with no turn of the event loop in between. Run: `npm run bench:row-sizer`.

import { generateCpf } from '../src/finance/cpf.js';
import { IdleRowSizer, MAX_PENDING_ROWS } from '../src/store/row-sizes.js';
import { Table } from '../src/store/table.js';
import { sandbox, token } from './snapshots.js';
import { formatNumber, median } from './support.js';

const ROUNDS = 12;
const PER_ROUND = 400;

async function side(measureRowsWhenIdle: boolean) {
  const sb = sandbox({ measureRowsWhenIdle });
  const admin = await token(sb, 'cid_bench', 'svc_cs_test_bench');
  const created = await sb.call('POST', '/v3/sandbox/partners', admin, { name: 'writer', clock: 'frozen' });
  const tok = await token(sb, String(created.client_id), String(created.client_secret));
  let next = measureRowsWhenIdle ? 500_000_000 : 600_000_000;
  /** CPU microseconds per request over one round. */
  return async () => {
    const cpu = process.cpuUsage();
    for (let k = 0; k < PER_ROUND; k++) {
      await sb.call('POST', '/v3/customers', tok, {
        cpf: generateCpf(String(next++)),
        name: `Customer ${k}`,
      });
      await sb.idle();
    }
    const used = process.cpuUsage(cpu);
    return (used.user + used.system) / PER_ROUND;
  };
}

/** Writes rows of ~600 bytes with no turn in between, then lets the drains run: queue figures. */
async function burst(rows: number) {
  const drains: (() => void)[] = [];
  const sizer = new IdleRowSizer((drain) => drains.push(drain));
  const table = new Table<{ id: string; partner_id: string; body: string }>('customers');
  table.index(sizer.indexFor(table));
  for (let k = 0; k < rows; k++)
    table.insert({ id: `r${k}`, partner_id: 'ptn_1', body: `${k}`.padEnd(600, 'x') });
  const queued = sizer.stats();
  const slots = (sizer as unknown as { queue: unknown[] }).queue.length;
  const cpu = process.cpuUsage();
  let turns = 0;
  while (drains.length > 0) {
    (drains.shift() as () => void)();
    turns++;
  }
  const used = process.cpuUsage(cpu);
  return {
    queued,
    slots,
    turns,
    drainCpuMs: (used.user + used.system) / 1000,
    after: sizer.stats(),
  };
}

export async function run() {
  const on = await side(true);
  const off = await side(false);
  await on();
  await off();
  const samples = { on: [] as number[], off: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which side goes first, so drift falls on both.
    if (round % 2 === 0) {
      samples.on.push(await on());
      samples.off.push(await off());
    } else {
      samples.off.push(await off());
      samples.on.push(await on());
    }
  }
  const flood = await burst(200_000);
  const ratios = samples.on.map((value, k) => value / (samples.off[k] as number));
  const markdown = [
    `In-process, memory store, ${ROUNDS} alternating rounds of ${PER_ROUND} \`POST /v3/customers\` per side, one event-loop turn between requests; CPU of the process per request (median of rounds).`,
    '',
    '| rows measured | CPU µs per request |',
    '|---|---:|',
    `| while the event loop is idle (default) | ${median(samples.on).toFixed(0)} |`,
    `| never (\`measureRowsWhenIdle: false\`) | ${median(samples.off).toFixed(0)} |`,
    '',
    `Ratio (median of per-round ratios): **${median(ratios).toFixed(3)}** (rounds ${Math.min(...ratios).toFixed(2)} to ${Math.max(...ratios).toFixed(2)}).`,
    '',
    `Queue bound (${formatNumber(MAX_PENDING_ROWS)} rows): 200,000 rows of ~600 bytes written with no turn of the event loop queued ${formatNumber(flood.queued.pending)} (array of ${formatNumber(flood.slots)} slots) and left ${formatNumber(flood.queued.dropped)} to the save; the drains then measured ${formatNumber(flood.after.measuredRows)} rows (${(flood.after.measuredBytes / 1e6).toFixed(1)} MB of JSON) in ${formatNumber(flood.turns)} turns and ${flood.drainCpuMs.toFixed(0)} ms of CPU (${((flood.drainCpuMs * 1000) / Math.max(1, flood.turns)).toFixed(0)} µs a turn).`,
  ].join('\n');
  return { name: 'Measuring rows when idle: cost on writes', markdown };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await run();
  console.log(`## ${result.name}\n\n${result.markdown}`);
}
