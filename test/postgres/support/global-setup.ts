import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from './embedded.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the test PostgreSQL, without a database name. */
    postgresUrl: string;
  }
}

/**
 * Starts one real PostgreSQL for the whole run and stops and removes it after. Each test file
 * makes its own database in it (see `database.ts`).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const postgres = await startEmbeddedPostgres();
  project.provide('postgresUrl', postgres.url);
  return () => postgres.stop();
}
