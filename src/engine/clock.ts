import type { ClockState } from '../store/records.js';

/** A partner's view of time. Domain code reads time only through this. */
export interface Clock {
  nowMs(): number;
  now(): Date;
  /** `now()` as an ISO 8601 UTC string, the form every timestamp field uses. */
  iso(): string;
}

/** The time a clock state shows when real time is `realNowMs`. */
export function clockReading(state: ClockState, realNowMs: number): number {
  return state.frozen_at_ms ?? realNowMs + state.offset_ms;
}

/** A clock state pinned at its current reading. */
export function frozen(state: ClockState, realNowMs: number): ClockState {
  return { offset_ms: state.offset_ms, frozen_at_ms: clockReading(state, realNowMs) };
}

/** A clock state that runs from its current reading on. */
export function resumed(state: ClockState, realNowMs: number): ClockState {
  if (state.frozen_at_ms === null) return state;
  return { offset_ms: state.frozen_at_ms - realNowMs, frozen_at_ms: null };
}

/** A clock state that reads `targetMs` now, frozen or running as before. */
export function movedTo(state: ClockState, targetMs: number, realNowMs: number): ClockState {
  if (state.frozen_at_ms !== null) return { offset_ms: state.offset_ms, frozen_at_ms: targetMs };
  return { offset_ms: targetMs - realNowMs, frozen_at_ms: null };
}

/** The initial state of a new partner's clock: reading `startMs` (`--start-time`) or real time now. */
export function initialClock(mode: 'running' | 'frozen', realNowMs: number, startMs?: number): ClockState {
  const start = startMs ?? realNowMs;
  return mode === 'frozen'
    ? { offset_ms: 0, frozen_at_ms: start }
    : { offset_ms: start - realNowMs, frozen_at_ms: null };
}

/** A clock over a state that is read afresh each call (so it follows freezes and advances). */
export function clockOf(readState: () => ClockState, realNow: () => number): Clock {
  const nowMs = () => clockReading(readState(), realNow());
  // A write reads the time as text several times (created_at, updated_at, each event): the text
  // of the last reading is kept, so the same millisecond is formatted once.
  let lastMs = Number.NaN;
  let lastIso = '';
  return {
    nowMs,
    now: () => new Date(nowMs()),
    iso: () => {
      const ms = nowMs();
      if (ms !== lastMs) {
        lastIso = new Date(ms).toISOString();
        lastMs = ms;
      }
      return lastIso;
    },
  };
}

/** A clock that always reads `ms` (jobs see their own due time; tests pin time). */
export function fixedClock(ms: number): Clock {
  return { nowMs: () => ms, now: () => new Date(ms), iso: () => new Date(ms).toISOString() };
}

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Parses a duration like "90s", "15m", "2h", "35d" into milliseconds; undefined if malformed. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d{1,7})(s|m|h|d)$/.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}
