import { parseDuration } from '../clock.js';

/** Partner-clock durations, as `POST /v3/sandbox/clock/advance {by}` takes them: 90s, 15m, 2h, 35d. */
export function clockDurationMs(text: string): number | undefined {
  return parseDuration(text.trim());
}

export const CLOCK_DURATION_HINT = 'a duration like 90s, 15m, 2h or 35d';
export const REAL_DURATION_HINT = 'a real-time duration like 200ms, 5s or 1m';

/** Real-time durations for polling bounds: 200ms, 5s, 1m. */
export function realDurationMs(text: string): number | undefined {
  const match = /^(\d{1,7})(ms|s|m)$/.exec(text.trim());
  if (!match) return undefined;
  const factor = match[2] === 'ms' ? 1 : match[2] === 's' ? 1000 : 60_000;
  return Number(match[1]) * factor;
}

/** Writes milliseconds back as the largest whole unit (for step details). */
export function formatDuration(ms: number): string {
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ] as const) {
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}
