import { describe, expect, it } from 'vitest';
import { IDLE_RETRY_MS, idleTurns } from './idle-turns.js';

/**
 * Turns, timers and a clock the test runs by hand; each check reads the next of `readings` (the
 * loop's busy and idle milliseconds since the previous check), and each piece of work takes
 * `workMs` of the hand clock.
 */
function handLoop(readings: { active: number; idle: number }[], workMs = 0) {
  const turns: (() => void)[] = [];
  const timers: { run: () => void; ms: number }[] = [];
  let clock = 0;
  const errors: unknown[] = [];
  const defer = idleTurns(
    () => {
      const reading = readings.shift();
      if (reading === undefined) throw new Error('no loop reading left');
      return reading;
    },
    {
      nextTurn: (run) => turns.push(run),
      later: (run, ms) => timers.push({ run, ms }),
      now: () => clock,
    },
    (error) => errors.push(error),
  );
  let ran = 0;
  const work = () => {
    ran++;
    clock += workMs;
  };
  return {
    defer: () => defer(work),
    deferWork: (w: () => void) => defer(w),
    errors,
    ran: () => ran,
    turn: () => (turns.shift() as () => void)(),
    timer: () => (timers.shift() as { run: () => void }).run(),
    turns,
    timers,
  };
}

describe('idleTurns', () => {
  it('runs the work in the next turn when the loop waited for I/O since the last check', () => {
    const loop = handLoop([{ active: 4, idle: 6 }]);
    loop.defer();
    expect(loop.ran()).toBe(0);
    loop.turn();
    expect(loop.ran()).toBe(1);
    expect(loop.timers).toEqual([]);
  });

  it('waits while every turn is busy with requests, and runs in the first turn after spare time', () => {
    const loop = handLoop([
      { active: 10, idle: 0 },
      { active: 9.7, idle: 0.3 },
      { active: 3, idle: 7 },
    ]);
    loop.defer();
    loop.turn();
    expect(loop.ran()).toBe(0);
    expect(loop.timers.map((t) => t.ms)).toEqual([IDLE_RETRY_MS]);
    // After the wait it asks again in a turn of its own: still saturated, so it waits once more.
    loop.timer();
    loop.turn();
    expect(loop.ran()).toBe(0);
    loop.timer();
    loop.turn();
    expect(loop.ran()).toBe(1);
    expect(loop.turns).toEqual([]);
    expect(loop.timers).toEqual([]);
  });

  it('does not count its own work as load: a loop busy only with it goes on at once', () => {
    // Each piece of work takes 5 ms; the loop reports those 5 ms (plus a little) as busy.
    const loop = handLoop(
      [
        { active: 1, idle: 9 },
        { active: 5.2, idle: 0 },
        { active: 5.2, idle: 0 },
      ],
      5,
    );
    for (let k = 0; k < 3; k++) {
      loop.defer();
      loop.turn();
    }
    expect(loop.ran()).toBe(3);
    expect(loop.timers).toEqual([]);
  });

  it('counts the work only once: busy time beyond it is still load', () => {
    const loop = handLoop(
      [
        { active: 1, idle: 9 },
        { active: 55, idle: 0 },
      ],
      5,
    );
    loop.defer();
    loop.turn();
    loop.defer();
    loop.turn();
    expect(loop.ran()).toBe(1);
    expect(loop.timers.map((t) => t.ms)).toEqual([IDLE_RETRY_MS]);
  });

  it('reports what the work throws instead of letting it out of the timer', () => {
    const loop = handLoop([{ active: 1, idle: 9 }]);
    const failure = new Error('a row JSON cannot hold');
    loop.deferWork(() => {
      throw failure;
    });
    expect(() => loop.turn()).not.toThrow();
    expect(loop.errors).toEqual([failure]);
  });
});
