import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';

/** Any constant: the advisory lock that serialises instances migrating the same database at once. */
const MIGRATION_LOCK = 720_431_001;

/** The folder of plain SQL migrations, beside this module (the build copies it into dist/). */
export function migrationsDir(): string {
  return fileURLToPath(new URL('./migrations/', import.meta.url));
}

export interface Migration {
  name: string;
  sql: string;
}

/** The migrations in a folder, in file-name order (`001_…sql`, `002_…sql`, …). */
export function readMigrations(dir = migrationsDir()): Migration[] {
  if (!existsSync(dir)) throw new Error(`PostgreSQL migrations folder not found: ${dir}`);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.sql'))
    .sort()
    .map((name) => ({ name, sql: readFileSync(`${dir}/${name}`, 'utf8') }));
}

/**
 * Applies every migration not applied yet, each in its own transaction, and records it in
 * `schema_migrations`. Instances starting together take turns through an advisory lock, so each
 * migration runs exactly once. Returns the names applied now.
 */
export async function migrate(pool: pg.Pool, migrations = readMigrations()): Promise<string[]> {
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set(
      (await client.query<{ name: string }>('SELECT name FROM schema_migrations')).rows.map((r) => r.name),
    );
    for (const migration of migrations) {
      if (done.has(migration.name)) continue;
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [migration.name]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`PostgreSQL migration ${migration.name} failed: ${(error as Error).message}`);
      }
      applied.push(migration.name);
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    client.release();
  }
  return applied;
}
