import { describe, expect, it } from 'vitest';
import { createTestSandbox } from '../support/sandbox.js';

type ClockBody = { now: string; frozen: boolean };

describe('sandbox clock', () => {
  it('starts frozen under --clock frozen and advances by durations and to a date-time', async () => {
    const sandbox = createTestSandbox();
    expect((await sandbox.json<ClockBody>('GET', '/v3/sandbox/clock')).body).toEqual({
      now: '2026-03-02T12:00:00.000Z',
      frozen: true,
    });
    sandbox.realTime.tick(60_000);
    expect((await sandbox.json<ClockBody>('GET', '/v3/sandbox/clock')).body.now).toBe(
      '2026-03-02T12:00:00.000Z',
    );
    for (const [by, now] of [
      ['90s', '2026-03-02T12:01:30.000Z'],
      ['15m', '2026-03-02T12:16:30.000Z'],
      ['2h', '2026-03-02T14:16:30.000Z'],
      ['35d', '2026-04-06T14:16:30.000Z'],
    ]) {
      const res = await sandbox.json<ClockBody>('POST', '/v3/sandbox/clock/advance', { body: { by } });
      expect(res.body).toEqual({ now, frozen: true });
    }
    const to = await sandbox.json<ClockBody>('POST', '/v3/sandbox/clock/advance', {
      body: { to: '2027-01-01T00:00:00Z' },
    });
    expect(to.body.now).toBe('2027-01-01T00:00:00.000Z');
  });

  it('resumes from its reading and runs with real time, then freezes again', async () => {
    const sandbox = createTestSandbox();
    expect((await sandbox.json<ClockBody>('POST', '/v3/sandbox/clock/resume')).body.frozen).toBe(false);
    sandbox.realTime.tick(5000);
    const running = await sandbox.json<ClockBody>('GET', '/v3/sandbox/clock');
    expect(running.body).toEqual({ now: '2026-03-02T12:00:05.000Z', frozen: false });
    await sandbox.json('POST', '/v3/sandbox/clock/advance', { body: { by: '1d' } });
    sandbox.realTime.tick(1000);
    expect((await sandbox.json<ClockBody>('GET', '/v3/sandbox/clock')).body.now).toBe(
      '2026-03-03T12:00:06.000Z',
    );
    const frozen = await sandbox.json<ClockBody>('POST', '/v3/sandbox/clock/freeze');
    expect(frozen.body).toEqual({ now: '2026-03-03T12:00:06.000Z', frozen: true });
    sandbox.realTime.tick(1000);
    expect((await sandbox.json<ClockBody>('GET', '/v3/sandbox/clock')).body.now).toBe(
      '2026-03-03T12:00:06.000Z',
    );
  });

  it.each([
    [{}],
    [{ by: '1d', to: '2027-01-01T00:00:00Z' }],
    [{ by: '-5m' }],
    [{ by: '5 minutes' }],
    [{ to: 'tomorrow' }],
  ])('refuses %j with 400', async (body) => {
    const sandbox = createTestSandbox();
    const res = await sandbox.json('POST', '/v3/sandbox/clock/advance', { body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_failed' });
  });
});

describe('advance bounds', () => {
  it('refuses a single jump beyond 3660 days with 422 and accepts exactly 3660', async () => {
    const sandbox = createTestSandbox();
    const tooFar = await sandbox.json('POST', '/v3/sandbox/clock/advance', { body: { by: '3661d' } });
    expect(tooFar.status).toBe(422);
    expect(tooFar.body).toMatchObject({ code: 'clock_jump_too_large' });
    const ok = await sandbox.json<{ now: string }>('POST', '/v3/sandbox/clock/advance', {
      body: { by: '3660d' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.now).toBe('2036-03-09T12:00:00.000Z');
  });
});
