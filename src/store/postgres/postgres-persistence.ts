import type pg from 'pg';
import { type ChangeSet, isEmptyChangeSet } from '../change-set.js';
import { type Persistence, WriteFailedError } from '../persistence.js';
import { StorageHealth, StorageUnavailableError } from '../storage-health.js';
import type { Store } from '../store.js';
import { type LoadChecks, repairLoadedPartners } from '../stored-world-repair.js';
import {
  describeUnsaved,
  onlyDeletes,
  onlyPartner,
  partnersOf,
  splitRemovals,
  withoutPartners,
} from './change-parts.js';
import {
  isRetryable,
  LeasesRefused,
  PartnerNotOwnedError,
  retried,
  StatementFailed,
  type WriteGuard,
} from './flush-errors.js';
import { type FlushOutcome, flushStatement } from './flush-statement.js';
import { purgePartners } from './purge.js';
import { mergeChangeSets, readTableRows, type StoredRow } from './rows.js';
import { describeDatabaseError, isDatabaseUnreachable } from './unreachable.js';

/**
 * PostgreSQL as the store of record (`--database`). Each flush writes the change set accumulated
 * since the previous one in one transaction. Writes are group-committed: callers arriving while a
 * transaction runs share the next one, so each caller's change is committed when its promise
 * resolves. A transaction the database refuses (a constraint, a trigger, the connection lost) is
 * not retried with later flushes, which would fail every later write with it: each partner's
 * changes are then written in a transaction of their own, and the partners whose write still
 * fails are rolled back (dropped from memory, reloaded from the database on their next request).
 * The flush rejects with a WriteFailedError naming them; the other partners' writes stand.
 *
 * A database that cannot be reached (see isDatabaseUnreachable) fails the whole flush: its
 * partners are rolled back the same way, `health` refuses writes until `SELECT 1` answers again
 * (tried every second), and the flush rejects with StorageUnavailableError.
 */
export class PostgresPersistence implements Persistence {
  guard: WriteGuard | undefined;
  onWrite: ((seconds: number) => void) | undefined;
  readonly health = new StorageHealth({
    probe: () => this.pool.query('SELECT 1').then(noop),
    describe: describeDatabaseError,
  });
  private writing: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  private unwritten: ChangeSet | null = null;

  constructor(
    readonly pool: pg.Pool,
    private readonly store: Store,
    /** Where the checks of loaded rows report what they set aside, and the real time they use. */
    private readonly loading: LoadChecks = { log: console, realNow: Date.now },
  ) {
    store.trackChanges();
  }

  /**
   * Loads the rows of the given partners (all rows when absent) into memory. Reads every table
   * first, then applies them in one synchronous step untracked: what was loaded is already durable,
   * and other partners' pending changes are left alone. Returns how many rows were loaded.
   */
  async load(partnerIds?: readonly string[], tables = this.store.tableNames()): Promise<number> {
    const loaded: [string, StoredRow[]][] = [];
    for (const name of tables) loaded.push([name, await readTableRows(this.pool, name, partnerIds)]);
    let count = 0;
    let maxSeq = this.store.meta.seq;
    this.store.untracked(() => {
      for (const [name, rows] of loaded) {
        this.store.table(name)?.apply({ upserts: rows, deletes: [] });
        count += rows.length;
        for (const row of rows) if (typeof row.seq === 'number' && row.seq > maxSeq) maxSeq = row.seq;
      }
    });
    // The insertion counter orders a partner's events and jobs; it continues past what was loaded.
    this.store.meta.seq = maxSeq;
    // Rows an older version let in unchecked are checked as each partner loads (stored-world-repair).
    await repairLoadedPartners(this.store, partnerIds, this.loading);
    return count;
  }

  flush(): Promise<void> {
    if (this.queued) return this.queued;
    if (!this.writing) {
      const started = performance.now();
      this.writing = this.write()
        .then(() => this.onWrite?.((performance.now() - started) / 1000))
        .finally(() => {
          this.writing = null;
        });
      return this.writing;
    }
    this.queued = this.writing.then(noop, noop).then(() => {
      this.queued = null;
      return this.flush();
    });
    return this.queued;
  }

  /** The last flush, then the pool; a last flush that fails rejects, saying what was not saved. */
  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      this.health.stop();
      await this.pool.end();
    }
  }

  /**
   * A database error as a request should meet it: one saying the database cannot be reached
   * becomes StorageUnavailableError (and `health` refuses writes until it is back); any other is
   * returned as it is.
   */
  storageError(error: unknown): unknown {
    return isDatabaseUnreachable(error) ? this.health.failed(error, describeDatabaseError(error)) : error;
  }

  private async write(): Promise<void> {
    const taken = this.store.takeChangeSet();
    const changes = this.unwritten ? mergeChangeSets(this.unwritten, taken) : taken;
    this.unwritten = null;
    if (isEmptyChangeSet(changes)) return;
    const removals = splitRemovals(changes);
    if (!removals) return this.writeRows(changes);
    let failed: unknown;
    try {
      if (!this.health.writable) throw this.health.refusal();
      await retried(() =>
        purgePartners(this.pool, this.store.tableNames(), removals.partnerIds, removals.tombstones),
      );
    } catch (error) {
      // Not removed: the partners are read back from the database (their tombstones dropped).
      failed = isDatabaseUnreachable(error) ? this.storageError(error) : error;
      // Unreachable: nothing can be read back either; the partners reload once it answers.
      if (failed instanceof StorageUnavailableError) this.rollBackAll(removals.partnerIds);
      else await this.rollBack(removals.partnerIds);
    }
    if (!isEmptyChangeSet(removals.rest)) await this.writeRows(removals.rest);
    if (failed === undefined) return;
    if (failed instanceof StorageUnavailableError) throw failed;
    throw new WriteFailedError(removals.partnerIds, 'the removal of the partner(s)', failed);
  }

  private async writeRows(changes: ChangeSet): Promise<void> {
    const partnerIds = partnersOf(changes);
    if (!this.health.writable) {
      // Refused until the database answers again: what is pending goes, as a failed write's does.
      this.rollBackAll(partnerIds);
      throw this.health.refusal();
    }
    try {
      await this.writeChecked(changes, partnerIds);
    } catch (error) {
      if (error instanceof LeasesRefused) return this.writeAround(changes, error);
      if (!(error instanceof StatementFailed)) throw error;
      if (isDatabaseUnreachable(error.cause)) {
        this.rollBackAll(partnerIds);
        throw this.health.failed(error.cause, describeDatabaseError(error.cause));
      }
      await this.writeApart(changes, partnerIds, error.cause);
    }
  }

  /**
   * The database cannot be reached: every partner of the flush is dropped from memory (the guard
   * reloads each on its next request, once the database answers), writers in flight are told.
   */
  private rollBackAll(partnerIds: string[]): void {
    this.unwritten = null;
    this.health.rolledBack();
    if (this.guard) this.guard.rolledBack(partnerIds);
    else for (const id of partnerIds) this.store.evictPartner(id);
  }

  /**
   * One statement for the change set, its leases checked. Throws StatementFailed when the database
   * refused it (nothing written), or the guard's error when a lease was not held.
   */
  private async writeChecked(changes: ChangeSet, partnerIds: string[]): Promise<void> {
    const lease = this.guard ? { ...this.guard.lease(), partnerIds } : undefined;
    let outcome: FlushOutcome | undefined;
    let statement: ReturnType<typeof flushStatement>;
    try {
      statement = flushStatement(changes, lease);
    } catch (error) {
      throw new StatementFailed(error); // a row JSON cannot hold: refused like the database would
    }
    for (let attempt = 1; ; attempt++) {
      try {
        outcome = (await this.pool.query<FlushOutcome>(statement)).rows[0];
        break;
      } catch (error) {
        // A deadlock or serialization failure rolled the whole statement back: run it again.
        if (attempt < 3 && isRetryable(error)) continue;
        throw new StatementFailed(error);
      }
    }
    if (!outcome) throw new StatementFailed(new Error('the flush statement answered no row'));
    const refused = this.guard ? this.guard.confirmed(new Set(outcome.held), partnerIds) : [];
    if (refused.length > 0) throw new LeasesRefused(refused, this.guard?.refused(refused) as Error);
    if (!outcome.ok) throw new PartnerNotOwnedError(partnerIds);
    await this.guard?.committed();
  }

  /**
   * Nothing was written: the refused partners' rows belong to their new owner now (their requests
   * answer `instance_unavailable`), and every other partner's rows are written at once, since their
   * requests wait on this flush and must not be told that nothing of theirs was written.
   */
  private async writeAround(changes: ChangeSet, refusal: LeasesRefused): Promise<never> {
    const answers = new Map(refusal.partnerIds.map((id) => [id, refusal.answer]));
    const rest = withoutPartners(changes, new Set(refusal.partnerIds));
    let failed = refusal.partnerIds;
    if (!isEmptyChangeSet(rest)) {
      try {
        await this.writeRows(rest);
      } catch (error) {
        if (!(error instanceof WriteFailedError)) throw error;
        failed = [...failed, ...error.partnerIds];
        for (const [id, answer] of error.answers) answers.set(id, answer);
      }
    }
    throw new WriteFailedError(failed, 'rows of partners another instance took over', refusal, answers);
  }

  /**
   * The shared statement failed: each partner's rows in a statement of their own, then the
   * deletes (which name no partner). Partners whose write fails again are rolled back.
   */
  private async writeApart(changes: ChangeSet, partnerIds: string[], cause: unknown): Promise<void> {
    let failed: string[] = [];
    const refused: LeasesRefused[] = [];
    if (partnerIds.length <= 1) failed = partnerIds;
    else {
      for (const id of partnerIds) {
        try {
          await this.writeChecked(onlyPartner(changes, id), [id]);
        } catch (error) {
          if (error instanceof StatementFailed) {
            failed.push(id);
            cause = error.cause;
          } else if (error instanceof LeasesRefused) refused.push(error);
          else throw error;
        }
      }
      const deletes = onlyDeletes(changes);
      if (!isEmptyChangeSet(deletes)) {
        try {
          await this.writeChecked(deletes, []);
        } catch (error) {
          if (!(error instanceof StatementFailed)) throw error;
          // Whose rows they were is not known: every partner of the flush is reloaded.
          failed = partnerIds;
          cause = error.cause;
        }
      }
      // A partner refused by its lease is its new owner's now: nothing of it to retry.
      this.unwritten = null;
    }
    // A partner refused by its lease answers instance_unavailable; one whose write failed, write_failed.
    const answers = new Map(refused.flatMap((r) => r.partnerIds.map((id) => [id, r.answer] as const)));
    if (failed.length === 0 && partnerIds.length > 0) {
      if (answers.size > 0)
        throw new WriteFailedError(
          [...answers.keys()],
          'rows of partners another instance took over',
          cause,
          answers,
        );
      return;
    }
    await this.rollBack(failed);
    throw new WriteFailedError(
      [...failed, ...answers.keys()],
      describeUnsaved(changes, new Set(failed)),
      cause,
      answers,
    );
  }

  /** Drops the partners from memory: what they show next is what the database holds. */
  private async rollBack(partnerIds: readonly string[]): Promise<void> {
    if (this.guard) {
      this.guard.rolledBack(partnerIds);
      return;
    }
    for (const id of partnerIds) this.store.evictPartner(id);
    await this.load(partnerIds);
  }
}

function noop(): void {}
