import type pg from 'pg';

/** A stored record: every table's rows have an id; all but `partners` name their partner. */
export type StoredRow = { id: string; partner_id?: string; seq?: number };

/** The partner a row belongs to (a partner row belongs to itself). */
export function rowPartner(row: StoredRow): string {
  return row.partner_id ?? row.id;
}

/** Table names come from our own store, but quote them anyway: they are identifiers in SQL. */
function ident(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a table name: ${name}`);
  return `"${name}"`;
}

/** Reads a table's records: all of them, or only those of the given partners. */
export async function readTableRows(
  client: pg.ClientBase | pg.Pool,
  table: string,
  partnerIds?: readonly string[],
): Promise<StoredRow[]> {
  const result = partnerIds
    ? await client.query<{ record: StoredRow }>(
        `SELECT record FROM ${ident(table)} WHERE partner_id = ANY($1::text[])`,
        [partnerIds],
      )
    : await client.query<{ record: StoredRow }>(`SELECT record FROM ${ident(table)}`);
  return result.rows.map((r) => r.record);
}

/** The tables that exist in the database's public schema. */
export async function existingTables(pool: pg.Pool): Promise<Set<string>> {
  const result = await pool.query<{ table_name: string }>(
    'SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()',
  );
  return new Set(result.rows.map((r) => r.table_name));
}

/**
 * Folds a later change set into an earlier one that could not be written (the later version of a
 * row wins; a delete after an upsert wins and vice versa; a removal drops the partner's earlier
 * rows), so a failed flush is retried in full. The journal's fold, shared.
 */
export { mergeChangeSets } from '../journal/merge-changes.js';
