/**
 * Makes the store durable. A response is sent only after `flush()` resolves. Backends (the
 * journal for `--data`, PostgreSQL for `--database`) receive the store's change sets; nothing
 * above `store/` knows which one runs.
 */
export interface Persistence {
  /** Resolves once every change made before the call is durable (group-committed). */
  flush(): Promise<void>;
  /** Flushes what is pending, finishes background work, and releases files or connections. */
  close(): Promise<void>;
}

/** The default: nothing to write. */
export const memoryPersistence: Persistence = { flush: async () => {}, close: async () => {} };
