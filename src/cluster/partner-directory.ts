import type pg from 'pg';
import { issueAccessToken } from '../domain/access-tokens.js';
import { ApiError } from '../domain/errors.js';
import { TOMBSTONE_RETENTION_MS, TOMBSTONES_KEPT } from '../domain/partner-lifetime.js';
import { clockOf } from '../engine/clock.js';
import type { Logger, PartnerDirectory } from '../http/deps.js';
import { randomIds } from '../lib/ids.js';
import { pruneTombstoneRows, purgePartners } from '../store/postgres/purge.js';
import type { CredentialRecord, PartnerRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import type { Cluster } from './cluster.js';
import { type Forwarder, NOT_OWNER_HEADER, OwnerUnreachableError } from './forward.js';
import { PARKED_OWNER } from './leases.js';

/** Expired partners one sweep removes at most from the database. */
const EXPIRY_BATCH = 100;
/** How often the database's tombstones are pruned (a grouped scan of a bounded table). */
const PRUNE_EVERY_MS = 60_000;

export interface DirectoryOptions {
  pool: pg.Pool;
  store: Store;
  cluster: Cluster;
  forwarder: Forwarder;
  realNow: () => number;
  log: Logger;
}

/**
 * Shared mode's view of every partner, wherever it lives: rows read from PostgreSQL, requests on a
 * partner another instance holds sent there, and the sweep of partners whose lifetime ran out
 * while no instance held them (those held are removed by their owner's own sweep).
 */
export class SharedPartnerDirectory implements PartnerDirectory {
  private prunedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: DirectoryOptions) {}

  async createdBy(partnerId: string): Promise<PartnerRecord[]> {
    const result = await this.options.pool.query<{ record: PartnerRecord }>(
      "SELECT record FROM partners WHERE record->>'created_by' = $1",
      [partnerId],
    );
    return result.rows.map((r) => r.record);
  }

  async get(partnerId: string): Promise<PartnerRecord | undefined> {
    // PostgreSQL refuses NUL in text (a path may hold one): no such partner.
    if (partnerId.includes('\u0000')) return undefined;
    const result = await this.options.pool.query<{ record: PartnerRecord }>(
      'SELECT record FROM partners WHERE id = $1',
      [partnerId],
    );
    return result.rows[0]?.record;
  }

  async count(): Promise<number> {
    const result = await this.options.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM partners');
    return result.rows[0]?.n ?? 0;
  }

  async bring(partnerId: string, request: Request, body?: string): Promise<Response | undefined> {
    const { cluster, forwarder } = this.options;
    for (let attempt = 0; attempt < 3; attempt++) {
      const view = await cluster.claim(partnerId);
      if (view.mine) return undefined;
      const token = await this.tokenOf(partnerId);
      if (!token) return undefined;
      const headers = new Headers(request.headers);
      headers.set('authorization', `Bearer ${token}`);
      let answer: Response;
      try {
        answer = await forwarder.forward(
          new Request(request.url, { method: request.method, headers }),
          view.ownerUrl,
          body === undefined ? undefined : Buffer.from(body),
        );
      } catch (error) {
        if (!(error instanceof OwnerUnreachableError)) throw error;
        break;
      }
      // The owner gave the partner up meanwhile (it applied nothing): ask again.
      if (!answer.headers.has(NOT_OWNER_HEADER)) return answer;
    }
    throw new ApiError(
      'instance_unavailable',
      `The sandbox instance holding partner ${partnerId} is not reachable right now. Retry in a second.`,
      { headers: { 'Retry-After': '1' } },
    );
  }

  /**
   * A token of the partner itself, for its owner: the caller was checked here (the partner's
   * creator), and the owner then serves the partner acting on itself. Signed with the key every
   * instance shares, on the partner's own clock; undefined when the partner is gone.
   */
  private async tokenOf(partnerId: string): Promise<string | undefined> {
    const result = await this.options.pool.query<{ partner: PartnerRecord; credential: CredentialRecord }>(
      `SELECT p.record AS partner, c.record AS credential FROM partners p
       JOIN credentials c ON c.partner_id = p.id WHERE p.id = $1 LIMIT 1`,
      [partnerId],
    );
    const row = result.rows[0];
    if (!row) return undefined;
    const clock = clockOf(() => row.partner.clock, this.options.realNow);
    const key = Buffer.from(this.options.store.meta.signing_key, 'base64url');
    return issueAccessToken(row.credential, clock, key, randomIds('jti_')).access_token;
  }

  /**
   * Removes the partners whose lifetime ran out while no instance held them (parked, or their
   * owner died), in one transaction per batch, tombstones made from their rows; and, once a
   * minute, forgets tombstones past their retention. Answers how many partners were removed.
   */
  async sweep(realNowMs: number): Promise<number> {
    const { pool, store } = this.options;
    const expired = await pool.query<{ id: string }>(
      `SELECT p.id FROM partners p JOIN partner_leases l ON l.partner_id = p.id
       WHERE (p.record->>'expires_at_ms')::bigint <= $1 AND (l.owner = $2 OR l.expires_at < now())
       LIMIT $3`,
      // The same expression as the index on it (migration 008), so the sweep reads only the expired.
      [Math.floor(realNowMs), PARKED_OWNER, EXPIRY_BATCH],
    );
    const ids = expired.rows.map((r) => r.id);
    if (ids.length > 0) {
      await purgePartners(pool, store.tableNames(), ids, { reason: 'expired', goneAtMs: realNowMs });
      this.options.log.info(`removed ${ids.length} expired partner(s) no instance held`);
    }
    if (realNowMs - this.prunedAt >= PRUNE_EVERY_MS) {
      this.prunedAt = realNowMs;
      await pruneTombstoneRows(pool, realNowMs - TOMBSTONE_RETENTION_MS, TOMBSTONES_KEPT);
    }
    return ids.length;
  }
}
