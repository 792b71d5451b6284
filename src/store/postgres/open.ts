import pg from 'pg';
import type { Store } from '../store.js';
import { migrate } from './migrate.js';
import { PostgresPersistence } from './postgres-persistence.js';

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
    await persistence.checkSchema();
    await persistence.loadSigningKey();
    return persistence;
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
}
