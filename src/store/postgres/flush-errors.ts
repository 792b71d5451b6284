// What a flush to PostgreSQL can meet, apart from the database being unreachable (unreachable.ts).

/**
 * Shared mode's say in each write. Each flush statement checks the leases of the partners whose
 * rows it writes (see flush-statement.ts) and writes nothing if any is not held by this instance.
 */
export interface WriteGuard {
  /** Who writes: this instance's id and URL, and the lease length a write renews to. */
  lease(): { owner: string; url: string; ttlMs: number };
  /** Told which written partners this instance holds; returns those it does not. */
  confirmed(held: Set<string>, partnerIds: string[]): string[];
  /**
   * Told which partners were refused, after the rollback; returns the error the waiting
   * requests get (the guard knows how to say it to a client).
   */
  refused(partnerIds: string[]): Error;
  /** Told that the transaction it confirmed committed; the flush resolves after this does. */
  committed(): Promise<void>;
  /**
   * Told that these partners' changes could not be written and were dropped: forget them in
   * memory, so their next request reloads them from the database.
   */
  rolledBack(partnerIds: readonly string[]): void;
}

/** A flush refused because this instance does not own some partner it wrote to. */
export class PartnerNotOwnedError extends Error {
  constructor(readonly partnerIds: string[]) {
    super(`this instance no longer owns partner(s) ${partnerIds.join(', ')}; their changes were not written`);
    this.name = 'PartnerNotOwnedError';
  }
}

/**
 * The flush statement wrote nothing: these partners' leases are held by another instance (their
 * rows are its own now). `answer` is what their waiting requests get.
 */
export class LeasesRefused extends Error {
  constructor(
    readonly partnerIds: string[],
    readonly answer: Error,
  ) {
    super(answer.message);
    this.name = 'LeasesRefused';
  }
}

/** A flush statement the database refused or could not run (nothing of it was written). */
export class StatementFailed extends Error {
  constructor(override readonly cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

/** PostgreSQL's deadlock_detected and serialization_failure: safe to run the statement again. */
export function isRetryable(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === '40P01' || code === '40001';
}

/** Runs a statement or transaction again (up to `attempts` times) when PostgreSQL rolled it back
 * for a deadlock or a serialization failure. */
export async function retried<T>(run: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= attempts || !isRetryable(error)) throw error;
    }
  }
}
