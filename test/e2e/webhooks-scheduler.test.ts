import { describe, expect, it } from 'vitest';
import { DEFAULT_PARTNER_ID } from '../../src/domain/default-partner.js';
import { jsonObject } from '../../src/store/record-rules.js';
import { createTestSandbox } from '../support/sandbox.js';

const DAY = 86_400_000;
const YEAR = 365 * DAY;

describe('scheduler over a long advance', () => {
  it('runs 1,000 jobs spread over a year exactly once, in due order, each seeing its own now', async () => {
    const sandbox = createTestSandbox();
    const engine = sandbox.deps.engine;
    const start = engine.clock(DEFAULT_PARTNER_ID).nowMs();
    const ran: { n: number; due: number; now: number; eventTimestamp: string }[] = [];
    engine.handle(
      'test.tick',
      (ctx, payload) => {
        const event = ctx.emit('loan.payment_received', { n: payload.n as number });
        ran.push({
          n: payload.n as number,
          due: payload.due as number,
          now: ctx.clock.nowMs(),
          eventTimestamp: event.timestamp,
        });
        // Every tenth job schedules a follow-up inside the same window: it must run in this advance too.
        if ((payload.n as number) % 10 === 0 && (payload.n as number) < 1000) {
          const due = ctx.clock.nowMs() + 3 * DAY;
          if (due <= start + YEAR)
            ctx.schedule('test.tick', { n: (payload.n as number) + 100_000, due }, due);
        }
      },
      jsonObject,
    );

    // A deterministic spread (LCG), including several jobs sharing one due time and one at the very end.
    const ctx = engine.context(DEFAULT_PARTNER_ID);
    let seed = 42;
    const due: number[] = [];
    for (let n = 0; n < 1000; n++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      const at = n === 999 ? start + YEAR : n % 97 === 0 ? start + 180 * DAY : start + 1 + (seed % YEAR);
      due.push(at);
      ctx.schedule('test.tick', { n, due: at }, at);
    }
    // Due just after the target: must not run.
    ctx.schedule('test.tick', { n: -1, due: start + YEAR + 1 }, start + YEAR + 1);

    const res = await sandbox.json<{ now: string }>('POST', '/v3/sandbox/clock/advance', {
      body: { by: '365d' },
    });
    expect(res.status).toBe(200);
    expect(res.body.now).toBe(new Date(start + YEAR).toISOString());

    const originals = ran.filter((r) => r.n < 100_000);
    expect(originals.map((r) => r.n).sort((a, b) => a - b)).toEqual([...Array(1000).keys()]);
    const followUps = ran.filter((r) => r.n >= 100_000);
    const expectedFollowUps = due.filter((d, n) => n % 10 === 0 && d + 3 * DAY <= start + YEAR).length;
    expect(followUps).toHaveLength(expectedFollowUps);
    expect(expectedFollowUps).toBeGreaterThan(50);

    for (const r of ran) {
      expect(r.now).toBe(r.due);
      expect(r.eventTimestamp).toBe(new Date(r.due).toISOString());
    }
    for (let i = 1; i < ran.length; i++) {
      expect(ran[i]?.due).toBeGreaterThanOrEqual(ran[i - 1]?.due ?? 0);
    }
    // Same due time: scheduling order.
    const shared = originals.filter((r) => r.due === start + 180 * DAY).map((r) => r.n);
    expect(shared).toEqual([...shared].sort((a, b) => a - b));
    expect(shared.length).toBeGreaterThan(5);

    expect(engine.scheduler.pending(DEFAULT_PARTNER_ID).map((j) => j.payload.n)).toEqual([-1]);
    // The event log holds one event per job run, newest first, with the partner-clock timestamps.
    const log = await sandbox.json<{ data: { timestamp: string }[]; has_more: boolean }>(
      'GET',
      '/v3/sandbox/events?limit=1',
    );
    expect(log.body.data[0]?.timestamp).toBe(new Date(start + YEAR).toISOString());
    engine.stop();
  });
});
