import { defineConfig } from 'vitest/config';

// One sandbox for the whole run, started before the first test file and stopped after the last.
export default defineConfig({ test: { globalSetup: ['./sandbox.global-setup.ts'] } });
