import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['test/browser/**', 'test/postgres/**'],
    testTimeout: 20_000,
    // Compiles src/ once so that spawned CLIs skip the tsx loader (see the file).
    globalSetup: ['test/support/cli-build.ts'],
    pool: 'threads',
    // Fails a test when a webhook it received does not match the OpenAPI `webhooks` schema.
    setupFiles: ['test/support/setup-webhook-schema.ts'],
    // One module graph per worker instead of one per file: importing the app again for each of
    // ~120 files was most of the suite's CPU (30 e2e files: 88 s of CPU isolated, 23 s not). Tests
    // share no module state they change (each builds its own sandbox or server); vi.useFakeTimers
    // is restored in a finally.
    isolate: false,
  },
});
