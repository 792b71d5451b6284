import { defineConfig } from 'vitest/config';

// The Testcontainers module's test: needs a Docker engine and the built image (CREDIT_SANDBOX_IMAGE);
// .ci/docker.sh runs it after building the image. Not part of `npm test`.
export default defineConfig({
  test: {
    include: ['testcontainers/test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
