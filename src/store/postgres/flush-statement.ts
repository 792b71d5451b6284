import type { ChangeSet } from '../change-set.js';
import { storableJson, storableText } from './safe-text.js';

/** Who writes, for the lease check folded into each flush (shared mode). */
export interface LeaseCheck {
  owner: string;
  url: string;
  ttlMs: number;
  /** The partners whose rows the flush inserts or updates. */
  partnerIds: string[];
}

/** The one row a flush statement answers. */
export interface FlushOutcome {
  /** Whether the rows were written (every partner's lease confirmed). */
  ok: boolean;
  /** The partners whose lease this instance holds now (renewed, or taken for a new partner). */
  held: string[];
}

function ident(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a table name: ${name}`);
  return `"${name}"`;
}

/**
 * One SQL statement for a whole flush, so a write costs one round trip and one implicit
 * transaction: the lease check (renew the leases of the partners written, take the lease of a
 * partner that has none), then per table its deletes by primary key and its upserts from one
 * jsonb array, each guarded by the check. All parts run in one snapshot; the lease rows stay
 * locked until the statement commits, so a takeover waits for it and then loads what it wrote.
 */
export function flushStatement(
  changes: ChangeSet,
  lease: LeaseCheck | undefined,
): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const param = (value: unknown, cast: string) => {
    values.push(value);
    return `$${values.length}::${cast}`;
  };
  const ctes: string[] = [];
  if (lease) {
    const owner = param(lease.owner, 'text');
    const url = param(lease.url, 'text');
    const ttl = param(lease.ttlMs, 'int');
    const partners = param(lease.partnerIds, 'text[]');
    ctes.push(
      // Lease rows locked in partner_id order (as the background renewal does): no deadlock.
      `locked AS (SELECT partner_id FROM partner_leases
         WHERE owner = ${owner} AND partner_id = ANY(${partners}) ORDER BY partner_id FOR UPDATE)`,
      `renewed AS (UPDATE partner_leases SET expires_at = now() + ${ttl} * interval '1 millisecond'
         WHERE partner_id IN (SELECT partner_id FROM locked) AND owner = ${owner} RETURNING partner_id)`,
      `created AS (INSERT INTO partner_leases (partner_id, owner, owner_url, expires_at)
         SELECT p, ${owner}, ${url}, now() + ${ttl} * interval '1 millisecond' FROM unnest(${partners}) AS p
         ON CONFLICT (partner_id) DO NOTHING RETURNING partner_id)`,
      `held AS (SELECT partner_id FROM renewed UNION SELECT partner_id FROM created)`,
      `checked AS (SELECT count(*) = cardinality(${partners}) AS ok FROM held)`,
    );
  } else {
    ctes.push(`held AS (SELECT NULL::text AS partner_id WHERE false)`, `checked AS (SELECT true AS ok)`);
  }
  let n = 0;
  for (const [name, table] of Object.entries(changes.tables)) {
    const t = ident(name);
    if (table.deletes.length > 0) {
      ctes.push(
        `d${n} AS (DELETE FROM ${t} WHERE id = ANY(${param(table.deletes.map(storableText), 'text[]')}) AND (SELECT ok FROM checked))`,
      );
    }
    if (table.upserts.length > 0) {
      ctes.push(
        `u${n} AS (INSERT INTO ${t} (id, partner_id, record)
           SELECT r->>'id', coalesce(r->>'partner_id', r->>'id'), r
           FROM jsonb_array_elements(${param(storableJson(JSON.stringify(table.upserts)), 'jsonb')}) AS r
           WHERE (SELECT ok FROM checked)
           ON CONFLICT (id) DO UPDATE SET partner_id = EXCLUDED.partner_id, record = EXCLUDED.record)`,
      );
    }
    n++;
  }
  const text = `WITH ${ctes.join(',\n')}
    SELECT (SELECT ok FROM checked) AS ok, ARRAY(SELECT partner_id FROM held) AS held`;
  return { text, values };
}
