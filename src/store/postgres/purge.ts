import type pg from 'pg';
import { TOMBSTONE_TABLE } from '../change-set.js';
import { storableJson } from './safe-text.js';

/** Tombstones a removal makes from the partners' rows in the database: why, and when (real ms). */
export interface TombstonesToWrite {
  reason: 'expired' | 'deleted';
  goneAtMs: number;
}

/** The lease owner of a partner removed for good: no instance may take it, and no flush writes it. */
export const GONE_OWNER = '(gone)';

function ident(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a table name: ${name}`);
  return `"${name}"`;
}

/**
 * Removes partners for good in one transaction, whichever instance holds them:
 * 1. their lease rows say `(gone)` (inserted or updated, locked in partner_id order as every flush
 *    locks them): this waits for a flush of their owner in progress, and every later flush of an
 *    instance that still holds one of them finds its lease gone and writes nothing (fencing);
 * 2. every row they had, in every table but the tombstones, is deleted by a statement that starts
 *    after that lock, so it sees what such a flush committed;
 * 3. their tombstones are written.
 * A crash or an error at any step rolls all of it back: the partners stay whole.
 */
export async function purgePartners(
  pool: pg.Pool,
  tables: readonly string[],
  partnerIds: readonly string[],
  tombstones: readonly { id: string }[] | TombstonesToWrite,
): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO partner_leases (partner_id, owner, owner_url, expires_at)
       SELECT p, $2, '', 'infinity' FROM unnest($1::text[]) AS p ORDER BY p
       ON CONFLICT (partner_id) DO UPDATE
         SET owner = EXCLUDED.owner, owner_url = EXCLUDED.owner_url, expires_at = EXCLUDED.expires_at`,
      [partnerIds, GONE_OWNER],
    );
    // Tombstones made from the rows themselves (a sweep that never loaded the partners), before
    // those rows go.
    if (!Array.isArray(tombstones))
      await writeTombstones(client, partnerIds, tombstones as TombstonesToWrite);
    const deletes = tables
      .filter((name) => name !== TOMBSTONE_TABLE)
      .map((name, i) => `d${i} AS (DELETE FROM ${ident(name)} WHERE partner_id = ANY($1::text[]))`);
    await client.query(`WITH ${deletes.join(',\n')} SELECT 1`, [partnerIds]);
    if (Array.isArray(tombstones) && tombstones.length > 0) {
      await client.query(
        `INSERT INTO ${ident(TOMBSTONE_TABLE)} (id, partner_id, record)
         SELECT r->>'id', r->>'partner_id', r FROM json_array_elements($1::json) AS r
         ON CONFLICT (id) DO UPDATE SET partner_id = EXCLUDED.partner_id, record = EXCLUDED.record`,
        [storableJson(JSON.stringify(tombstones))],
      );
    }
    await client.query('COMMIT');
  } catch (error) {
    // A connection that cannot even roll back is broken: it leaves the pool.
    const broken = await client.query('ROLLBACK').then(
      () => false,
      () => true,
    );
    client.release(broken);
    throw error;
  }
  client.release();
}

/** One tombstone per partner id and per client id the partners have in the database. */
async function writeTombstones(
  client: pg.PoolClient,
  partnerIds: readonly string[],
  { reason, goneAtMs }: TombstonesToWrite,
): Promise<void> {
  await client.query(
    `INSERT INTO ${ident(TOMBSTONE_TABLE)} (id, partner_id, record)
     SELECT g.id, g.partner_id, json_build_object('id', g.id, 'seq', 0, 'partner_id', g.partner_id,
       'reason', $2::text, 'gone_at_ms', $3::float8)
     FROM (SELECT id, id AS partner_id FROM partners WHERE id = ANY($1::text[])
           UNION ALL SELECT id, partner_id FROM credentials WHERE partner_id = ANY($1::text[])) AS g
     ON CONFLICT (id) DO UPDATE SET partner_id = EXCLUDED.partner_id, record = EXCLUDED.record`,
    [partnerIds, reason, goneAtMs],
  );
}

/**
 * Drops the tombstones of partners gone before `beforeMs`, and of all but the `keep` most recently
 * gone, with their `(gone)` lease rows. Answers how many gone partners were forgotten.
 */
export async function pruneTombstoneRows(pool: pg.Pool, beforeMs: number, keep: number): Promise<number> {
  const result = await pool.query(
    `WITH gone AS (
       SELECT partner_id, max((record->>'gone_at_ms')::float8) AS at FROM ${ident(TOMBSTONE_TABLE)} GROUP BY partner_id),
     doomed AS (
       SELECT partner_id FROM gone WHERE at < $1
       UNION SELECT partner_id FROM (SELECT partner_id FROM gone ORDER BY at DESC OFFSET $2) AS old),
     tombstones AS (DELETE FROM ${ident(TOMBSTONE_TABLE)} WHERE partner_id IN (SELECT partner_id FROM doomed))
     DELETE FROM partner_leases WHERE owner = $3 AND partner_id IN (SELECT partner_id FROM doomed)
     RETURNING partner_id`,
    [beforeMs, keep, GONE_OWNER],
  );
  return result.rowCount ?? 0;
}
