import { StorageHealth } from './storage-health.js';

/**
 * Makes the store durable. A response is sent only after `flush()` resolves. Backends (the
 * journal for `--data`, PostgreSQL for `--database`) receive the store's change sets; nothing
 * above `store/` knows which one runs.
 */
export interface Persistence {
  /**
   * Resolves once every change made before the call is durable (group-committed). Rejects with
   * StorageUnavailableError when the backend cannot write: the changes that were not durable were
   * rolled back (see `health`), so memory holds what a restart would load.
   */
  flush(): Promise<void>;
  /** Flushes what is pending, finishes background work, and releases files or connections. */
  close(): Promise<void>;
  /** Whether writes can be made durable now (`/healthz`, writes refused up front while not). */
  readonly health: StorageHealth;
  /** Told how long each write took to become durable, in seconds (`/metrics`). */
  onWrite?: ((seconds: number) => void) | undefined;
  /** Nothing is ever written: `flush()` has nothing to wait for (a request need not wait on it). */
  readonly volatile?: true;
}

/** The default: nothing to write, never unavailable. */
export const memoryPersistence: Persistence = {
  flush: async () => {},
  close: async () => {},
  health: new StorageHealth(),
  volatile: true,
};

/**
 * A flush the database refused for some partners (a constraint, a trigger, a value it cannot
 * store, the connection lost): their changes were dropped, not kept for a later flush, and the
 * partners are reloaded from what was saved, so nothing unsaved stays visible. The other partners
 * of the same flush were written (each in its own transaction once the shared one failed).
 */
export class WriteFailedError extends Error {
  constructor(
    /** The partners whose changes were not saved. */
    readonly partnerIds: readonly string[],
    /** What was not saved, for people: rows per table. */
    readonly unsaved: string,
    override readonly cause: unknown,
    /** What a partner's waiting request answers instead of `write_failed` (a lease held elsewhere). */
    readonly answers: ReadonlyMap<string, Error> = new Map(),
  ) {
    super(
      `the database refused the changes of partner(s) ${partnerIds.join(', ')} (${unsaved}): ${describe(cause)}`,
    );
    this.name = 'WriteFailedError';
  }
}

/**
 * Waits until the changes made so far are durable for `partnerId`. A flush that failed only for
 * other partners of the same group commit resolves (this partner's rows were written); one that
 * failed for this partner rejects with what its request answers: `instance_unavailable` when
 * another instance holds it now, else the WriteFailedError (its changes were rolled back).
 */
export async function flushFor(persistence: Persistence, partnerId: string | undefined): Promise<void> {
  try {
    await persistence.flush();
  } catch (error) {
    if (!(error instanceof WriteFailedError) || partnerId === undefined) throw error;
    if (!error.partnerIds.includes(partnerId)) return;
    throw error.answers.get(partnerId) ?? error;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
