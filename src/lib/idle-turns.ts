/**
 * Runs background work only in turns of the event loop that follow spare time: work that can wait
 * (measuring rows for a later snapshot save) must not take CPU from requests while the server is
 * saturated. "Spare" is read off the event loop's own accounting since the last check: the share
 * of that time the loop spent busy with anything but this work. A loop that waited for I/O in
 * between, or ran only this work, had spare time; a loop that went straight from one batch of
 * requests to the next did not, and the work waits `retryMs` (a timer that keeps no process
 * alive) and asks again. A server with any pause between its requests (one client, a test, a seed
 * script) runs the work in the next turn; under a load that keeps every turn busy, once the load
 * stops.
 */

/** Above this share of time busy with other work since the last check, work waits. */
export const SATURATED_UTILIZATION = 0.9;
/** How long saturated work waits before it asks again. */
export const IDLE_RETRY_MS = 10;

/** The event loop's busy and idle milliseconds since the previous reading. */
export type LoopTimeSince = () => { active: number; idle: number };

export interface IdleTurnTimers {
  /** The next turn, after the I/O at hand (`setImmediate`). */
  nextTurn(run: () => void): void;
  /** Later (`setTimeout`). */
  later(run: () => void, ms: number): void;
  /** A monotonic clock in milliseconds (`performance.now`): the work's own time is not "other work". */
  now(): number;
}

/** `defer(work)`: runs `work` in the first turn that follows spare time. */
export function idleTurns(
  loopTimeSince: LoopTimeSince,
  timers: IdleTurnTimers,
  onError: (error: unknown) => void,
  retryMs = IDLE_RETRY_MS,
): (work: () => void) => void {
  /** Milliseconds this work took since the last reading. */
  let own = 0;
  const spare = (): boolean => {
    const { active, idle } = loopTimeSince();
    const others = Math.max(0, active - own);
    own = 0;
    const total = active + idle;
    return total <= 0 || others / total <= SATURATED_UTILIZATION;
  };
  const attempt = (work: () => void) => () => {
    if (!spare()) {
      timers.later(() => timers.nextTurn(attempt(work)), retryMs);
      return;
    }
    const started = timers.now();
    try {
      work();
    } catch (error) {
      // Run from a timer, outside any request: reported, never the end of the process.
      onError(error);
    } finally {
      own += timers.now() - started;
    }
  };
  return (work) => timers.nextTurn(attempt(work));
}
