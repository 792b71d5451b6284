import type pg from 'pg';
import { retried } from '../store/postgres/flush-errors.js';
import { GONE_OWNER } from '../store/postgres/purge.js';

/** Where a partner's lease stands, as seen by the instance asking. */
export type LeaseView = { mine: true } | { mine: false; ownerUrl: string };

/**
 * The lease owner of a partner no instance holds: idle (unloaded) or handed back. `expires_at` is
 * when it must be loaded again (its next timed job falls due, real time of the instance that
 * parked it; `infinity` when it has none): the sweep of some instance loads it then, and any
 * request takes it at once.
 */
export const PARKED_OWNER = '(parked)';
export { GONE_OWNER };

/**
 * The `partner_leases` table: one row per partner naming the instance that owns it until
 * `expires_at` (PostgreSQL's clock, so instances' clocks need not agree). Every statement is a
 * single atomic upsert or update, so two instances can never both acquire one partner.
 */
export class LeaseTable {
  constructor(
    private readonly pool: pg.Pool,
    readonly instanceId: string,
    private readonly ttlMs: number,
  ) {}

  /**
   * Takes the lease when it is free, parked, expired or already ours; otherwise reports the live
   * owner, or that the partner is gone for good. `url` is where other instances forward this
   * partner's requests.
   */
  async acquire(partnerId: string, url: string): Promise<LeaseView | 'gone'> {
    const taken = await this.pool.query(
      `INSERT INTO partner_leases (partner_id, owner, owner_url, expires_at)
       VALUES ($1, $2, $3, now() + $4 * interval '1 millisecond')
       ON CONFLICT (partner_id) DO UPDATE
         SET owner = EXCLUDED.owner, owner_url = EXCLUDED.owner_url, expires_at = EXCLUDED.expires_at
         WHERE partner_leases.owner <> $5 AND (partner_leases.expires_at < now()
           OR partner_leases.owner = EXCLUDED.owner OR partner_leases.owner = $6)
       RETURNING partner_id`,
      [partnerId, this.instanceId, url, this.ttlMs, GONE_OWNER, PARKED_OWNER],
    );
    if (taken.rowCount) return { mine: true };
    const owner = await this.pool.query<{ owner: string; owner_url: string }>(
      'SELECT owner, owner_url FROM partner_leases WHERE partner_id = $1',
      [partnerId],
    );
    const row = owner.rows[0];
    // Released between the two statements: try once more rather than forward nowhere.
    if (!row) return this.acquire(partnerId, url);
    if (row.owner === GONE_OWNER) return 'gone';
    return { mine: false, ownerUrl: row.owner_url };
  }

  /**
   * Gives partners back without forgetting them: each is parked until `wakeAtMs` (real time, ms
   * since the epoch; null: until a request comes), when the sweep loads it again.
   */
  async park(partners: readonly { id: string; wakeAtMs: number | null }[]): Promise<void> {
    if (partners.length === 0) return;
    // Rows locked in partner_id order, as a flush and a removal lock them: the three never
    // deadlock (an unordered update did, with a removal running beside it).
    await retried(() =>
      this.pool.query(
        `UPDATE partner_leases l SET owner = $2, owner_url = '',
           expires_at = coalesce(to_timestamp(w.wake / 1000.0), 'infinity')
         FROM unnest($3::text[], $4::float8[]) AS w(id, wake)
         WHERE l.partner_id = w.id AND l.owner = $1 AND l.partner_id IN (
           SELECT partner_id FROM partner_leases
           WHERE partner_id = ANY($3::text[]) AND owner = $1 ORDER BY partner_id FOR UPDATE
         )`,
        [this.instanceId, PARKED_OWNER, partners.map((p) => p.id), partners.map((p) => p.wakeAtMs)],
      ),
    );
  }

  /** Extends every lease this instance holds; returns the partners it still holds. */
  async renewAll(url: string): Promise<Set<string>> {
    const result = await this.pool.query<{ partner_id: string }>(
      // Rows locked in partner_id order, as a flush locks them: the two never deadlock.
      `UPDATE partner_leases SET expires_at = now() + $2 * interval '1 millisecond', owner_url = $3
       WHERE partner_id IN (
         SELECT partner_id FROM partner_leases WHERE owner = $1 ORDER BY partner_id FOR UPDATE
       ) AND owner = $1
       RETURNING partner_id`,
      [this.instanceId, this.ttlMs, url],
    );
    return new Set(result.rows.map((r) => r.partner_id));
  }

  /**
   * Partners to load for the background sweep: those whose owner died (lease expired), and those
   * parked whose wake time has come (`realNowMs`: this instance's real time, as the parking one's).
   * Every partner has a lease row from its first write on (migration 008 gave one to older ones).
   */
  async orphans(limit: number, realNowMs: number): Promise<string[]> {
    const result = await this.pool.query<{ partner_id: string }>(
      `SELECT partner_id FROM partner_leases
       WHERE (owner NOT IN ($2, $3) AND expires_at < now())
          OR (owner = $2 AND expires_at <= to_timestamp($4 / 1000.0))
       ORDER BY random() LIMIT $1`,
      [limit, PARKED_OWNER, GONE_OWNER, realNowMs],
    );
    return result.rows.map((r) => r.partner_id);
  }

  /** Forgets the leases of partners that turned out not to exist (a stale token named one). */
  async drop(partnerIds: string[]): Promise<void> {
    await this.pool.query('DELETE FROM partner_leases WHERE owner = $1 AND partner_id = ANY($2::text[])', [
      this.instanceId,
      partnerIds,
    ]);
  }
}
