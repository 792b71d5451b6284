// The sandbox as the Docker image runs it (dist/), with `--data $DATA_FILE` when that is set
// (in memory otherwise). Sends its port and its storage restore line to the parent.
import { BENCH_SERVER_OPTIONS } from './options.js';

// @ts-expect-error -- dist/ exists only after `npm run build`; the bench builds it before starting this.
const { startServer } = (await import('../../dist/server.js')) as typeof import('../../src/server.js');

let restored = '';
const server = await startServer({
  ...BENCH_SERVER_OPTIONS,
  rateLimit: 0,
  dataFile: process.env.DATA_FILE || undefined,
  log: {
    info: (message) => {
      if (message.startsWith('storage: restored')) restored = message;
    },
    error: (m, e) => console.error(m, e),
  },
});
const cpu = process.cpuUsage();
process.send?.({ port: Number(new URL(server.url).port), restored, cpuMs: (cpu.user + cpu.system) / 1000 });

// On {compact: true}: compacts the journal now, sampling the event loop meanwhile (the bench keeps
// sending writes), and answers with the compaction's duration and the loop's longest stall.
/**
 * The longest gap between 1 ms timer ticks, and the longest of those gaps the process spent on the
 * CPU: on a busy machine a gap can be another process's turn, not this one's work.
 */
function stallSampler(): () => { maxMs: number; maxBusyMs: number } {
  let lastWall = performance.now();
  let lastCpu = process.cpuUsage();
  let maxMs = 0;
  let maxBusyMs = 0;
  let on = true;
  const tick = () => {
    const wall = performance.now();
    const cpu = process.cpuUsage();
    const gap = wall - lastWall - 1;
    const busy = Math.min(gap, (cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000);
    maxMs = Math.max(maxMs, gap);
    maxBusyMs = Math.max(maxBusyMs, busy);
    lastWall = wall;
    lastCpu = cpu;
    if (on) setTimeout(tick, 1);
  };
  setTimeout(tick, 1);
  return () => {
    on = false;
    return { maxMs, maxBusyMs };
  };
}

// On {baselineMs}: the same sampling for that long without a compaction (the machine's own noise).
process.on('message', async (message: { compact?: boolean; baselineMs?: number }) => {
  const { monitorEventLoopDelay } = await import('node:perf_hooks');
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  if (message.baselineMs) {
    histogram.enable();
    const stop = stallSampler();
    await new Promise((resolve) => setTimeout(resolve, message.baselineMs));
    histogram.disable();
    process.send?.({ baseline: { ...stop(), p99Ms: histogram.percentile(99) / 1e6 } });
    return;
  }
  if (!message.compact) return;
  const journal = server.deps
    .persistence as import('../../src/store/journal/journal-persistence.js').JournalPersistence;
  histogram.enable();
  const stop = stallSampler();
  const started = performance.now();
  await journal.compact();
  const ms = performance.now() - started;
  histogram.disable();
  process.send?.({
    compacted: { ms, snapshotBytes: journal.snapshotBytes, ...stop(), p99Ms: histogram.percentile(99) / 1e6 },
  });
});
