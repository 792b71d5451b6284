// Stopping `serve` on SIGTERM/SIGINT (or npm gone): a clean close within a deadline, else exit 1.
import type { Logger } from '../http/deps.js';

/** Longest a SIGTERM/SIGINT shutdown may take (docker stop waits 10 s before SIGKILL). */
const STOP_DEADLINE_MS = 2000;

/**
 * SIGTERM or SIGINT (docker stop, kill, Ctrl-C, npm forwarding its own signal) stops the server
 * cleanly: no new connections, pending writes flushed, a line saying it stopped, exit 0. A
 * second signal, or a shutdown that overruns its deadline, ends the process at once (exit 1).
 */
export function stopOnSignals(close: () => Promise<void>, log: Logger): void {
  let stopping = false;
  const stop = (reason: string) => {
    if (stopping) {
      log.error(`credit-sandbox: ${reason} again, exiting now`);
      process.exit(1);
    }
    stopping = true;
    log.info(`credit-sandbox: ${reason}, stopping…`);
    setTimeout(() => {
      log.error(`credit-sandbox: did not stop within ${STOP_DEADLINE_MS} ms, exiting`);
      process.exit(1);
    }, STOP_DEADLINE_MS).unref();
    close().then(
      () => {
        log.info('credit-sandbox stopped');
        process.exit(0);
      },
      (error: unknown) => {
        log.error('credit-sandbox: error while stopping', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT received'));
  process.on('SIGTERM', () => stop('SIGTERM received'));
  // Under `npm start` / `npx`, npm hands its SIGTERM to the `sh -c` it started, and sh does not
  // pass it on: the server would be left orphaned. When that shell is gone, stop as if signalled.
  if (process.env.npm_command) {
    const parent = process.ppid;
    setInterval(() => {
      if (process.ppid !== parent) stop('npm exited');
    }, 250).unref();
  }
}
