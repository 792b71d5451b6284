import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * Vitest global setup: compiles `src/` once per run with esbuild (file for file, no bundling, as
 * `tsc` would into `dist/`) so that every CLI a test spawns starts in about 0.2 s of CPU instead
 * of about 1.8 s through the tsx loader, which transforms each module again in each process. The
 * suite spawns ~160 CLI processes: this is the largest single saving in `npm test`.
 *
 * The output sits in a temporary directory at the same depth as `src/`, beside symlinks to the
 * checkout's `scenarios`, `fixtures`, `docs` and `node_modules` and a copy of `package.json`, so
 * the `new URL('../../fixtures/', import.meta.url)` paths in the sources resolve exactly as they
 * do from `src/` and `dist/`. Nothing is written into the checkout. `spawnCli` (test/support/cli.ts)
 * reads the entry point from CREDIT_SANDBOX_TEST_CLI and falls back to tsx without it (the
 * browser and PostgreSQL suites, `vitest --watch` after an edit to src/ needs a restart).
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export default async function setup(): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'credit-sandbox-cli-'));
  const out = join(dir, 'src');
  await build({
    entryPoints: sources(join(ROOT, 'src')),
    outdir: out,
    outbase: join(ROOT, 'src'),
    format: 'esm',
    platform: 'node',
    target: 'node20',
    jsx: 'automatic',
    jsxImportSource: 'hono/jsx',
    logLevel: 'warning',
  });
  const migrations = join(ROOT, 'src/store/postgres/migrations');
  if (existsSync(migrations)) cpSync(migrations, join(out, 'store/postgres/migrations'), { recursive: true });
  for (const name of ['scenarios', 'fixtures', 'docs', 'node_modules']) {
    symlinkSync(join(ROOT, name), join(dir, name));
  }
  cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  process.env.CREDIT_SANDBOX_TEST_CLI = join(out, 'cli/main.js');
  return () => rmSync(dir, { recursive: true, force: true });
}

/** Every non-test TypeScript source under `dir` (iterative walk). */
function sources(dir: string): string[] {
  const found: string[] = [];
  const pending = [dir];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) pending.push(path);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) found.push(path);
    }
  }
  return found;
}
