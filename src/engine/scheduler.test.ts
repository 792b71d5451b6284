import { describe, expect, it } from 'vitest';
import { createPartner } from '../domain/partners.js';
import type { JobRecord } from '../store/records.js';
import { Store } from '../store/store.js';
import { Scheduler } from './scheduler.js';

/**
 * A scheduler over a frozen partner clock; returns how many row comparisons running `due` jobs
 * takes with `future` others pending. Counting work instead of timing it keeps the test exact on
 * a busy machine (a per-request cost is measured with the benchmarks in bench/, not here).
 */
function workToAdvance(due: number, future: number): number {
  const store = new Store('k');
  const realNow = () => 1_000_000;
  let n = 0;
  const { partner } = createPartner(
    { store, realNow, ids: (p) => `${p}${++n}`, randomBytes: (s) => Buffer.alloc(s) },
    { name: 'p', clockMode: 'frozen' },
  );
  let ran = 0;
  const scheduler = new Scheduler({
    store,
    realNow,
    newJobId: () => `job_${++n}`,
    runJob: () => {
      ran++;
    },
    onError: (_m, e) => {
      throw e;
    },
    afterWake: () => {},
  });
  for (let i = 0; i < due; i++) scheduler.schedule(partner.id, 'k', {}, 1_000_001 + ((i * 7919) % due));
  for (let i = 0; i < future; i++) scheduler.schedule(partner.id, 'k', {}, 10_000_000_000 + i);
  // The pending-job index is the only structure whose cost could grow with the pending count.
  const index = store.jobsByPartner as unknown as { order: (a: JobRecord, b: JobRecord) => number };
  const order = index.order;
  let comparisons = 0;
  index.order = (a, b) => {
    comparisons++;
    return order(a, b);
  };
  scheduler.runDue(partner.id, 1_000_001 + due);
  const counted = comparisons;
  scheduler.stop();
  expect(ran).toBe(due);
  expect(store.jobsByPartner.size(partner.id)).toBe(future);
  return counted;
}

describe('Scheduler', () => {
  it('runs jobs in due order, ties in scheduling order, and leaves later ones pending', () => {
    const store = new Store('k');
    const realNow = () => 0;
    const { partner } = createPartner(
      { store, realNow, ids: (p) => `${p}x`, randomBytes: (s) => Buffer.alloc(s) },
      { name: 'p', clockMode: 'frozen' },
    );
    let n = 0;
    const ran: JobRecord[] = [];
    const scheduler = new Scheduler({
      store,
      realNow,
      newJobId: () => `job_${++n}`,
      runJob: (job) => ran.push(job),
      onError: () => {},
      afterWake: () => {},
    });
    for (const due of [30, 10, 20, 10, 40]) scheduler.schedule(partner.id, 'k', { due }, due);
    const cancelled = scheduler.schedule(partner.id, 'k', { due: 15 }, 15);
    scheduler.cancel(cancelled.id);
    expect(scheduler.runDue(partner.id, 30)).toBe(4);
    expect(ran.map((j) => j.id)).toEqual(['job_2', 'job_4', 'job_3', 'job_1']);
    expect(scheduler.pending(partner.id).map((j) => j.due_at_ms)).toEqual([40]);
    expect(scheduler.next(partner.id)?.due_at_ms).toBe(40);
    scheduler.stop();
  });

  // Regression: jobs were kept in one sorted array per partner and removed with splice(0, 1), so
  // draining k due jobs cost O(k * pending): 1,000 due jobs behind 200,000 future ones took ~50x
  // longer than alone. With a heap the future jobs cost only a log factor (~2x here).
  it('costs about the same to run due jobs whatever the number of future jobs pending', () => {
    const alone = workToAdvance(2_000, 0);
    const behind = workToAdvance(2_000, 100_000);
    // A heap pays a log factor (log2 102,000 / log2 2,000 is about 1.5); a sorted array or a
    // rebuild per removal would pay thousands of times more.
    expect(alone).toBeGreaterThan(2_000);
    expect(behind / alone).toBeLessThan(3);
  });
});
