import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPartner } from '../domain/partners.js';
import { Store } from '../store/store.js';
import { Scheduler } from './scheduler.js';

const START = 1_000_000;

/** A scheduler over one partner with a running (or frozen) clock on fake timers; counts timers armed. */
function setup(clockMode: 'running' | 'frozen') {
  const store = new Store('k');
  const realNow = () => Date.now();
  let n = 0;
  const { partner } = createPartner(
    { store, realNow, ids: (p) => `${p}${++n}`, randomBytes: (s) => Buffer.alloc(s) },
    { name: 'p', clockMode },
  );
  const ran: unknown[] = [];
  const scheduler = new Scheduler({
    store,
    realNow,
    newJobId: () => `job_${++n}`,
    runJob: (job) => ran.push(job.payload.i),
    onError: (_m, e) => {
      throw e;
    },
    afterWake: () => {},
  });
  const armed = vi.spyOn(globalThis, 'setTimeout');
  return { scheduler, partnerId: partner.id, ran, armed };
}

// Regression: every new job re-armed the partner's timer from scratch. A job due now waits at
// least one timer tick (1 ms in Node), so a stream of events closer together than that (a burst of
// API calls) pushed the due webhook attempts back again and again: nothing was delivered until
// the burst stopped. Counting timers keeps this exact on a busy machine.
describe('Scheduler wake-up timer', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: START });
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('is not re-armed by new jobs due no earlier than it fires', () => {
    const { scheduler, partnerId, ran, armed } = setup('running');
    for (let i = 0; i < 100; i++) scheduler.schedule(partnerId, 'k', { i }, START);
    scheduler.schedule(partnerId, 'k', { i: 'later' }, START + 60_000);
    expect(armed).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(ran).toEqual(Array.from({ length: 100 }, (_, i) => i));
    scheduler.stop();
  });

  it('is re-armed by a job due before it fires, which then runs on time', () => {
    const { scheduler, partnerId, ran, armed } = setup('running');
    scheduler.schedule(partnerId, 'k', { i: 'later' }, START + 60_000);
    scheduler.schedule(partnerId, 'k', { i: 'soon' }, START + 5);
    expect(armed).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(5);
    expect(ran).toEqual(['soon']);
    vi.advanceTimersByTime(60_000);
    expect(ran).toEqual(['soon', 'later']);
    scheduler.stop();
  });

  it('on a frozen clock, wakes for a job due now and never for one in its future', () => {
    const { scheduler, partnerId, ran, armed } = setup('frozen');
    scheduler.schedule(partnerId, 'k', { i: 'future' }, START + 1);
    expect(armed).not.toHaveBeenCalled();
    scheduler.schedule(partnerId, 'k', { i: 'now' }, START);
    scheduler.schedule(partnerId, 'k', { i: 'future 2' }, START + 2);
    expect(armed).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(60_000);
    expect(ran).toEqual(['now']);
    scheduler.stop();
  });
});
