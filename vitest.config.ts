import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['test/browser/**', 'test/postgres/**'],
    testTimeout: 20_000,
    // Compiles src/ once so that spawned CLIs skip the tsx loader (see the file).
    globalSetup: ['test/support/cli-build.ts'],
    pool: 'threads',
  },
});
