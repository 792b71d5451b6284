// The server's shutdown: stop the engine, close connections within a grace period, and flush last.
import type { serve } from '@hono/node-server';
import type { SharedMode } from './cluster/shared-mode.js';
import { ApiError } from './domain/errors.js';
import type { AccessLog } from './http/access-log.js';
import type { AppDeps, Logger } from './http/deps.js';
import { WriteFailedError } from './store/persistence.js';
import type { PartnerSweeper } from './tenancy/sweeper.js';

/** A flush that wrote nothing only for partners another instance holds now. */
function takenOver(error: unknown): boolean {
  if (error instanceof WriteFailedError)
    return error.partnerIds.every((id) => takenOver(error.answers.get(id)));
  return error instanceof ApiError && error.code === 'instance_unavailable';
}

/** How long requests still running at shutdown may take before their connections are cut. */
const CLOSE_GRACE_MS = 1000;

/** What a running server is made of, as far as closing it goes. */
export interface ClosingParts {
  server: ReturnType<typeof serve>;
  deps: AppDeps;
  shared: SharedMode | undefined;
  sweeper: PartnerSweeper;
  accessLog: AccessLog | undefined;
  log: Logger;
}

/** Closes a running server; fails (after giving everything back) when the last flush failed. */
export async function closeServer({
  server,
  deps,
  shared,
  sweeper,
  accessLog,
  log,
}: ClosingParts): Promise<void> {
  deps.engine.stop();
  await sweeper.stop();
  const closed = new Promise<void>((resolve, reject) =>
    server.close((error) => (error ? reject(error) : resolve())),
  );
  // Shutdown is bounded (docker stop allows a few seconds): idle keep-alive connections go
  // now, requests still running get one second to answer, then their sockets are cut. A
  // request cut off was never acknowledged, so nothing acknowledged is lost.
  if ('closeIdleConnections' in server) server.closeIdleConnections();
  const cut = setTimeout(() => {
    if ('closeAllConnections' in server) server.closeAllConnections();
  }, CLOSE_GRACE_MS);
  // The last flush runs however closing went; a failure of either fails the shutdown (exit
  // non-zero) once the leases and connections are given back.
  let failure: unknown;
  try {
    await Promise.all([closed, deps.webhooks.close()]);
  } catch (error) {
    failure = error;
  }
  clearTimeout(cut);
  accessLog?.flush();
  let lastFlush: unknown;
  if (shared) {
    // Shared mode: the last writes first, then the leases given back (survivors take the
    // partners at once), then the connections closed.
    await deps.persistence.flush().catch((error: unknown) => {
      lastFlush = error;
    });
    await shared.close();
  }
  // Whatever the engine and the last requests wrote is on disk before the process ends
  // (close flushes what is pending, then releases the journal).
  await deps.persistence.close().catch((error: unknown) => {
    lastFlush ??= error;
  });
  // Partners another instance took over meanwhile are its to save: not a failure here.
  if (takenOver(lastFlush)) {
    log.info(`last flush: ${(lastFlush as Error).message}`);
    lastFlush = undefined;
  }
  if (lastFlush !== undefined) {
    const why = lastFlush instanceof Error ? lastFlush.message : String(lastFlush);
    log.error(`last flush failed; not saved: ${why}`);
    throw new Error(`the last flush failed, these changes were not saved: ${why}`, { cause: lastFlush });
  }
  if (failure !== undefined) throw failure;
}
