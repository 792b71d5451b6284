import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['test/browser/**', 'test/postgres/**'],
    testTimeout: 20_000,
    pool: 'threads',
  },
});
