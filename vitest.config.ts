import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { TEST_LIMIT_MS } from './test/support/time-limits.js';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['test/browser/**', 'test/postgres/**'],
    // Limits are hang detectors scaled for a busy machine, never speed checks (see the file).
    testTimeout: TEST_LIMIT_MS,
    hookTimeout: TEST_LIMIT_MS,
    // Bundles the CLI once so that spawned CLIs skip the tsx loader (see the file).
    globalSetup: ['test/support/cli-build.ts'],
    pool: 'threads',
    // Much of the suite waits on processes it spawned (CLIs, servers, bash running the docs'
    // blocks) rather than computing in the worker; vitest's default of cores - 1 workers (a single
    // one on a 2-core machine) ran those waits one file at a time. One worker more than cores keeps
    // the CPUs busy.
    maxWorkers: availableParallelism() + 1,
    // Fails a test when a webhook it received does not match the OpenAPI `webhooks` schema.
    setupFiles: ['test/support/setup-webhook-schema.ts'],
    // One module graph per worker instead of one per file: importing the app again for each of
    // ~120 files was most of the suite's CPU (30 e2e files: 88 s of CPU isolated, 23 s not). Tests
    // share no module state they change (each builds its own sandbox or server); vi.useFakeTimers
    // is restored in a finally.
    isolate: false,
  },
});
