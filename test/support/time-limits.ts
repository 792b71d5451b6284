/**
 * Time limits in the suite are hang detectors, never speed checks: a test waits for events (a
 * line printed, a delivery received, a process ended) and a limit only says how long to wait
 * before calling the thing that never came a hang. Speed is measured in bench/.
 *
 * A limit is therefore the work's time on a quiet machine times the slowdown the suite must
 * hold through: three `npm test` runs at once on a 2-core machine shared with other people's
 * builds (load 15–30, at times 50) run each test up to ~15× slower than alone (CI at load 19–30:
 * `npm test` 667 s against 84 s alone; a test file's concurrent tests share that slice), and twice
 * that for margin.
 */
export const SLOWDOWN = 30;

/** The limit for work that takes `aloneMs` on a quiet machine. */
export function limitFor(aloneMs: number): number {
  return aloneMs * SLOWDOWN;
}

/**
 * Every test's and hook's limit (vitest.config.ts, 7.5 min): tests doing up to 15 s of work alone,
 * which is all but a few (those declare `limitFor(their work)`).
 */
export const TEST_LIMIT_MS = limitFor(15_000);

/**
 * How long the suite's helpers wait for one event (a line, a log entry, deliveries settling)
 * before failing with what they saw (5 min): less than a test's limit, so their message is shown.
 */
export const WAIT_LIMIT_MS = limitFor(10_000);

/** WAIT_LIMIT_MS as a spawned CLI's `--timeout <seconds>`: a bound on a hang, not on speed. */
export const WAIT_LIMIT_S = String(WAIT_LIMIT_MS / 1000);
