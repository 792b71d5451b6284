// What measuring rows while the event loop is idle (`IdleRowSizer`, which makes a first snapshot
// save cheap) adds to the CPU of writes: `POST /v3/customers` in-process through the app, one
// event-loop turn between requests as an HTTP server has, in two sandboxes of one process (rows
// measured when idle, and not), alternating rounds. Then the queue's bound: 200,000 rows written
// with no turn of the event loop in between. Run: `npm run bench:row-sizer`.

import { generateCpf } from '../src/finance/cpf.js';
import { byCustomerName } from '../src/store/customer-indexes.js';
import { type RowOrder, SortedIndex } from '../src/store/indexes.js';
import { measureWorldRowsWhenIdle } from '../src/store/partner-world.js';
import type { CustomerRecord } from '../src/store/records.js';
import { IdleRowSizer, MAX_PENDING_ROWS } from '../src/store/row-sizes.js';
import { Table } from '../src/store/table.js';
import { sandbox, token } from './snapshots.js';
import { formatNumber, median } from './support.js';

const ROUNDS = 20;
const PER_ROUND = 300;

async function side(measureRowsWhenIdle: boolean) {
  // The sizer the composition root would attach, attached here so that its drains can be timed.
  const sb = sandbox({ measureRowsWhenIdle: false });
  const drainMicros = { total: 0 };
  if (measureRowsWhenIdle) {
    measureWorldRowsWhenIdle(sb.deps.store, (drain) =>
      setImmediate(() => {
        const cpu = process.cpuUsage();
        drain();
        const used = process.cpuUsage(cpu);
        drainMicros.total += used.user + used.system;
      }).unref(),
    );
  }
  const admin = await token(sb, 'cid_bench', 'svc_cs_test_bench');
  const created = await sb.call('POST', '/v3/sandbox/partners', admin, { name: 'writer', clock: 'frozen' });
  const tok = await token(sb, String(created.client_id), String(created.client_secret));
  let next = measureRowsWhenIdle ? 500_000_000 : 600_000_000;
  /** CPU microseconds per request over one round, and the drains' share of it. */
  return async () => {
    const cpu = process.cpuUsage();
    const drainsBefore = drainMicros.total;
    for (let k = 0; k < PER_ROUND; k++) {
      await sb.call('POST', '/v3/customers', tok, {
        cpf: generateCpf(String(next++)),
        name: `Cliente ${k} da Conceição`,
      });
      await sb.idle();
    }
    const used = process.cpuUsage(cpu);
    return {
      perRequest: (used.user + used.system) / PER_ROUND,
      drains: (drainMicros.total - drainsBefore) / PER_ROUND,
    };
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
  // What the queues hold, counted from the inside: one entry per waiting row, whatever was written.
  const queues = (sizer as unknown as { queues: Map<object, Map<string, object>> }).queues;
  const slots = [...queues.values()].reduce((sum, queue) => sum + queue.size, 0);
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

/**
 * What pays for the drains on the customer write path: the name order's comparator now remembers
 * name keys. Inserting customers with accented names (as most Brazilian names are) into the two
 * name-sorted lists a partner has, with the comparator as it was (normalising on every
 * comparison) and as it is; CPU µs per customer, median of 5 alternating rounds.
 */
function nameOrderCost() {
  const uncached: RowOrder<CustomerRecord> = (a, b) => {
    const fold = (name: string | null) => (name ?? '').normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
    const ka = fold(a.name);
    const kb = fold(b.name);
    if (ka !== kb) return ka < kb ? -1 : 1;
    const ra = a.name ?? '';
    const rb = b.name ?? '';
    if (ra !== rb) return ra < rb ? -1 : 1;
    return a.seq - b.seq;
  };
  const first = ['João', 'Maria', 'José', 'Antônio', 'Conceição', 'Sebastião', 'Inês', 'Luís'];
  const last = ['Simões', 'Araújo', 'Gonçalves', 'Magalhães', 'Brandão', 'Patrício'];
  const rows = Array.from(
    { length: 6000 },
    (_, k) =>
      ({
        seq: k,
        partner_id: 'ptn_1',
        status: 'pending_kyc',
        name: `${first[k % 8]} ${last[(k * 7) % 6]} ${k}`,
      }) as CustomerRecord,
  );
  const insertAll = (order: RowOrder<CustomerRecord>) => {
    const all = new SortedIndex<CustomerRecord>((r) => r.partner_id, order);
    const byStatus = new SortedIndex<CustomerRecord>((r) => `${r.partner_id}|${r.status}`, order);
    const cpu = process.cpuUsage();
    for (const row of rows) {
      all.add(row);
      byStatus.add(row);
    }
    const used = process.cpuUsage(cpu);
    return (used.user + used.system) / rows.length;
  };
  const before: number[] = [];
  const now: number[] = [];
  for (let round = 0; round < 5; round++) {
    before.push(insertAll(uncached));
    now.push(insertAll(byCustomerName));
  }
  return { before: median(before), now: median(now) };
}

export async function run() {
  const on = await side(true);
  const off = await side(false);
  await on();
  await off();
  await on();
  await off();
  const samples = { on: [] as number[], off: [] as number[], drains: [] as number[] };
  const onRound = async () => {
    const { perRequest, drains } = await on();
    samples.on.push(perRequest);
    samples.drains.push(drains);
  };
  const offRound = async () => samples.off.push((await off()).perRequest);
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate which side goes first, so drift falls on both.
    if (round % 2 === 0) {
      await onRound();
      await offRound();
    } else {
      await offRound();
      await onRound();
    }
  }
  const flood = await burst(200_000);
  const names = nameOrderCost();
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
    `The drains themselves (timed one by one): **${median(samples.drains).toFixed(1)} µs per request**, ${((100 * median(samples.drains)) / median(samples.on)).toFixed(1)}% of the request's CPU.`,
    `What pays for it: inserting a customer with an accented name into the partner's two name-sorted lists (6,000 customers) cost ${names.before.toFixed(1)} µs of CPU with the comparator normalising on every comparison, ${names.now.toFixed(1)} µs now that it remembers name keys (\`src/store/customer-indexes.ts\`).`,
    '',
    `Queue bound (${formatNumber(MAX_PENDING_ROWS)} rows): 200,000 rows of ~600 bytes written with no turn of the event loop queued ${formatNumber(flood.queued.pending)} (${formatNumber(flood.slots)} map entries) and left ${formatNumber(flood.queued.dropped)} to the save; the drains then measured ${formatNumber(flood.after.measuredRows)} rows (${(flood.after.measuredBytes / 1e6).toFixed(1)} MB of JSON) in ${formatNumber(flood.turns)} turns and ${flood.drainCpuMs.toFixed(0)} ms of CPU (${((flood.drainCpuMs * 1000) / Math.max(1, flood.turns)).toFixed(0)} µs a turn).`,
  ].join('\n');
  return { name: 'Measuring rows when idle: cost on writes', markdown };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await run();
  console.log(`## ${result.name}\n\n${result.markdown}`);
}
