// Lets the benchmark ask a bench server for the CPU time it has used (all threads, user and system),
// over the IPC channel `fork` opened: bench/support.ts childCpuMicros sends 'cpu' between loads.
// 'heap' answers the V8 heap in use and how many garbage collections ran so far (bench/allocation.ts).
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';

export function answerCpuRequests(): void {
  let collections = 0;
  new PerformanceObserver((list) => {
    collections += list.getEntries().length;
  }).observe({ entryTypes: ['gc'] });
  process.on('message', (message) => {
    if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
    if (message === 'heap') process.send?.({ heap: getHeapStatistics().used_heap_size, collections });
  });
}
