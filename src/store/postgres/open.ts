import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Store } from '../store.js';
import { migrate } from './migrate.js';
import { PostgresPersistence } from './postgres-persistence.js';
import { existingTables } from './rows.js';

/** Connections each instance keeps; a flush holds one, reads never touch the database. */
const POOL_SIZE = 10;

/**
 * Connects to PostgreSQL, applies pending migrations, checks the schema and reads the shared
 * signing key. Loading rows is the caller's choice (all at start, or partner by partner).
 */
export async function openDatabase(
  url: string,
  store: Store,
  loading?: ConstructorParameters<typeof PostgresPersistence>[2],
): Promise<PostgresPersistence> {
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE });
  // An idle connection that breaks (database restart) must not crash the process.
  pool.on('error', () => {});
  try {
    await migrate(pool);
    const persistence = new PostgresPersistence(pool, store, loading);
    await checkSchema(pool, store);
    await loadSigningKey(pool, store);
    return persistence;
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
}

/** Checks that the database has a table for each store table (a migration missing is a bug). */
async function checkSchema(pool: pg.Pool, store: Store): Promise<void> {
  const present = await existingTables(pool);
  const missing = store.tableNames().filter((name) => !present.has(name));
  if (missing.length > 0) {
    throw new Error(`PostgreSQL has no table for ${missing.join(', ')}: add a migration that creates it`);
  }
}

/**
 * The token-signing key every instance shares: the first instance to start stores its own (fresh,
 * or derived from `--seed`), the others (and restarts) read it, so a token from one instance is
 * valid on all.
 */
async function loadSigningKey(pool: pg.Pool, store: Store): Promise<void> {
  await pool.query(
    "INSERT INTO sandbox_meta (key, value) VALUES ('signing_key', $1::jsonb) ON CONFLICT (key) DO NOTHING",
    [JSON.stringify(store.meta.signing_key || randomBytes(32).toString('base64url'))],
  );
  const result = await pool.query<{ value: string }>(
    "SELECT value FROM sandbox_meta WHERE key = 'signing_key'",
  );
  const key = result.rows[0]?.value;
  if (typeof key !== 'string') throw new Error('sandbox_meta has no signing_key');
  store.meta.signing_key = key;
}
