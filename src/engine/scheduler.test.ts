import { describe, expect, it } from 'vitest';
import { createPartner } from '../domain/partners.js';
import type { JobRecord } from '../store/records.js';
import { Store } from '../store/store.js';
import { Scheduler } from './scheduler.js';

/** A scheduler over a frozen partner clock; returns how long running `due` jobs takes with `future` others pending. */
function timeAdvance(due: number, future: number): number {
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
  const started = performance.now();
  scheduler.runDue(partner.id, 1_000_001 + due);
  const elapsed = performance.now() - started;
  scheduler.stop();
  expect(ran).toBe(due);
  return elapsed;
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
    const best = (fn: () => number) => Math.min(fn(), fn(), fn());
    const alone = best(() => timeAdvance(2_000, 0));
    const behind = best(() => timeAdvance(2_000, 100_000));
    expect(behind / alone).toBeLessThan(8);
  });
});
