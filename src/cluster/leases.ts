import type pg from 'pg';

/** Where a partner's lease stands, as seen by the instance asking. */
export type LeaseView = { mine: true } | { mine: false; ownerUrl: string };

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
   * Takes the lease when it is free, expired or already ours; otherwise reports the live owner.
   * `url` is where other instances forward this partner's requests.
   */
  async acquire(partnerId: string, url: string): Promise<LeaseView> {
    const taken = await this.pool.query(
      `INSERT INTO partner_leases (partner_id, owner, owner_url, expires_at)
       VALUES ($1, $2, $3, now() + $4 * interval '1 millisecond')
       ON CONFLICT (partner_id) DO UPDATE
         SET owner = EXCLUDED.owner, owner_url = EXCLUDED.owner_url, expires_at = EXCLUDED.expires_at
         WHERE partner_leases.expires_at < now() OR partner_leases.owner = EXCLUDED.owner
       RETURNING partner_id`,
      [partnerId, this.instanceId, url, this.ttlMs],
    );
    if (taken.rowCount) return { mine: true };
    const owner = await this.pool.query<{ owner_url: string }>(
      'SELECT owner_url FROM partner_leases WHERE partner_id = $1',
      [partnerId],
    );
    const row = owner.rows[0];
    // Released between the two statements: try once more rather than forward nowhere.
    if (!row) return this.acquire(partnerId, url);
    return { mine: false, ownerUrl: row.owner_url };
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

  /** Partners whose owner is gone (lease expired or released), for the background sweep. */
  async orphans(limit: number): Promise<string[]> {
    const result = await this.pool.query<{ id: string }>(
      `SELECT p.id FROM partners p LEFT JOIN partner_leases l ON l.partner_id = p.id
       WHERE l.partner_id IS NULL OR l.expires_at < now()
       ORDER BY random() LIMIT $1`,
      [limit],
    );
    return result.rows.map((r) => r.id);
  }

  /** Gives partners back (a graceful stop, or a partner that turned out not to exist). */
  async release(partnerIds?: string[]): Promise<void> {
    if (partnerIds) {
      await this.pool.query('DELETE FROM partner_leases WHERE owner = $1 AND partner_id = ANY($2::text[])', [
        this.instanceId,
        partnerIds,
      ]);
    } else {
      await this.pool.query('DELETE FROM partner_leases WHERE owner = $1', [this.instanceId]);
    }
  }
}
