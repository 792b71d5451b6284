#!/usr/bin/env node
// Runs the compiled CLI in dist/ (the published package and the Docker image ship it; a checkout
// builds it with `npm run build`, and on `npm start`).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const main = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli', 'main.js');
if (!existsSync(main)) {
  process.stderr.write('credit-sandbox: dist/ is missing; run `npm run build` in the checkout first.\n');
  process.exit(1);
}
await import(pathToFileURL(main).href);
