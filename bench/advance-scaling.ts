// Cost of a clock advance against the number of jobs that fall due: 1,000 vs 10,000 due jobs
// (ratio near 10 = linear), and 1,000 due jobs behind 100,000 future ones (cost must not follow
// the pending total). In-process, median of several runs. Each job emits an event, as lifecycle
// jobs do, so the event log and webhook fan-out are part of the cost.
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createDeps } from '../src/deps.js';
import { createPartner } from '../src/domain/partners.js';
import { DEFAULT_CONFIG } from '../src/http/deps.js';
import { sequentialIds } from '../src/lib/ids.js';
import { memoryPersistence } from '../src/store/persistence.js';
import { jsonObject } from '../src/store/record-rules.js';
import { Store } from '../src/store/store.js';
import { median } from './support.js';

const DAY = 86_400_000;
const RUNS = 5;
const TARGET_MAX_RATIO = 13;

// Collect the set-up's garbage before each timed advance, so a GC pause caused by scheduling
// 100,000 jobs is not billed to the advance.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** Milliseconds for one advance over `due` jobs spread over 30 days, with `future` jobs pending beyond. */
function oneAdvance(due: number, future: number): number {
  const realNow = () => Date.parse('2026-03-02T12:00:00Z');
  const deps = createDeps({
    store: new Store('bench'),
    persistence: memoryPersistence,
    ids: sequentialIds(),
    randomBytes: (size) => Buffer.alloc(size, 1),
    realNow,
    config: { ...DEFAULT_CONFIG, clockMode: 'frozen' },
    log: { info: () => {}, error: (m, e) => console.error(m, e) },
    webhookSender: async () => ({ statusCode: 200, retryAfter: null, body: '' }),
  });
  const { partner } = createPartner(deps, { name: 'bench', clockMode: 'frozen' });
  let ran = 0;
  deps.engine.handle(
    'bench.tick',
    (ctx, payload) => {
      ran++;
      ctx.emit('loan.payment_received', { n: payload.n as number });
    },
    jsonObject,
  );
  const ctx = deps.engine.context(partner.id);
  const start = ctx.clock.nowMs();
  for (let n = 0; n < due; n++) ctx.schedule('bench.tick', { n }, start + 1 + ((n * 7919) % (30 * DAY)));
  for (let n = 0; n < future; n++) ctx.schedule('bench.tick', { n }, start + 365 * DAY + n);
  collectGarbage();
  const t0 = performance.now();
  deps.engine.advance(partner.id, start + 31 * DAY);
  const elapsed = performance.now() - t0;
  deps.engine.stop();
  if (ran !== due) throw new Error(`expected ${due} jobs to run, ${ran} did`);
  return elapsed;
}

function measure(due: number, future: number): number {
  return median(Array.from({ length: RUNS }, () => oneAdvance(due, future)));
}

export async function run(): Promise<{ name: string; markdown: string; ok: boolean }> {
  for (let i = 0; i < 3; i++) oneAdvance(10_000, 0); // warm-up: let the JIT optimize the whole path
  const small = measure(1_000, 0);
  const large = measure(10_000, 0);
  const behind = measure(1_000, 100_000);
  const ratio = large / small;
  const ok = ratio <= TARGET_MAX_RATIO && behind / small < 3;
  const row = (label: string, ms: number) =>
    `| ${label} | ${ms.toFixed(1)} | ${((ms * 1000) / (label.startsWith('10,000') ? 10_000 : 1_000)).toFixed(1)} |`;
  const markdown = [
    `| advance over | ms (median of ${RUNS}) | µs per due job |`,
    '|---|---:|---:|',
    row('1,000 due jobs', small),
    row('10,000 due jobs', large),
    row('1,000 due jobs, 100,000 more pending later', behind),
    '',
    `Ratio 10,000 / 1,000: **${ratio.toFixed(2)}** (linear = 10; target <= ${TARGET_MAX_RATIO}). ` +
      `With 100,000 future jobs pending: **${(behind / small).toFixed(2)}×** the cost (target < 3).`,
  ].join('\n');
  return { name: 'Clock advance scaling', markdown, ok };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await run();
  console.log(`## ${result.name}\n\n${result.markdown}`);
}
