import { describe, expect, it } from 'vitest';
import type { ClockState } from '../store/records.js';
import { clockOf } from './clock.js';

describe('clockOf', () => {
  it('gives the text of each reading, following the state and real time', () => {
    let state: ClockState = { offset_ms: 0, frozen_at_ms: null };
    let real = Date.UTC(2026, 2, 2, 12, 0, 0, 0);
    const clock = clockOf(
      () => state,
      () => real,
    );
    expect(clock.iso()).toBe('2026-03-02T12:00:00.000Z');
    expect(clock.iso()).toBe('2026-03-02T12:00:00.000Z');
    real += 1;
    expect(clock.iso()).toBe('2026-03-02T12:00:00.001Z');
    state = { offset_ms: 86_400_000, frozen_at_ms: null };
    expect(clock.iso()).toBe('2026-03-03T12:00:00.001Z');
    state = { offset_ms: 0, frozen_at_ms: Date.UTC(2027, 0, 1) };
    expect(clock.iso()).toBe('2027-01-01T00:00:00.000Z');
    expect(clock.nowMs()).toBe(Date.UTC(2027, 0, 1));
  });

  it('still refuses a reading outside the dates JavaScript can show', () => {
    const clock = clockOf(
      () => ({ offset_ms: 0, frozen_at_ms: 9e15 }),
      () => 0,
    );
    expect(() => clock.iso()).toThrow(RangeError);
    expect(() => clock.iso()).toThrow(RangeError);
  });
});
