#!/usr/bin/env node
// The part of `npm run build` that is not TypeScript: the PostgreSQL migrations, and the Swagger UI
// files /docs serves (copied from the swagger-ui-dist dev dependency, so that the published package
// needs neither it nor its @scarf/scarf dependency, whose install script reports installs).
// The three names are src/http/docs.ts's ASSETS.
import { copyFileSync, cpSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

cpSync('src/store/postgres/migrations', 'dist/store/postgres/migrations', { recursive: true });
const swaggerDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
mkdirSync('dist/http/swagger-ui', { recursive: true });
for (const file of ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png'])
  copyFileSync(join(swaggerDir, file), join('dist/http/swagger-ui', file));
