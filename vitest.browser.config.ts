import { defineConfig } from 'vitest/config';

/** Browser tests (`npm run test:browser`): a real server on loopback driven by headless Chromium. */
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
