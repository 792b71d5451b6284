import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';

/**
 * Vitest global setup: bundles the CLI once per run with esbuild (one file with its dependencies)
 * so that every CLI a test spawns starts without the tsx loader, which transforms each module
 * again in each process (about 1.8 s of CPU), and without resolving and reading ~300 modules one
 * by one: a spawned `serve` reaches its first answer in about half the CPU of the file-for-file
 * build (~0.6 s instead of ~1.2 s). The suite spawns ~20 servers and ~160 CLI commands: this is
 * the largest single saving in `npm test`. The production build stays `tsc` into `dist/`, which
 * the package, Docker and typed-client CI steps run.
 *
 * The bundle sits in a temporary directory at `src/cli/main.js`, beside symlinks to the checkout's
 * `scenarios`, `fixtures`, `docs` and `node_modules` and a copy of `package.json`. Each source's
 * `import.meta.url` is replaced by the URL its own compiled file would have in that layout, so
 * `new URL('../../fixtures/', import.meta.url)` and `createRequire(import.meta.url)` resolve
 * exactly as they do from `src/` and `dist/`. Nothing is written into the checkout. `spawnCli`
 * (test/support/cli.ts) reads the entry point from CREDIT_SANDBOX_TEST_CLI and falls back to tsx
 * without it (the browser and PostgreSQL suites; `vitest --watch` after an edit to src/ needs a
 * restart).
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = join(ROOT, 'src');

export default async function setup(): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'credit-sandbox-cli-'));
  const out = join(dir, 'src');
  await build({
    entryPoints: [join(SRC, 'cli/main.ts')],
    outfile: join(out, 'cli/main.js'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    jsx: 'automatic',
    jsxImportSource: 'hono/jsx',
    logLevel: 'warning',
    // Bundled CommonJS dependencies call `require`: give the ES module one.
    banner: {
      js: "import { createRequire as __cliRequire } from 'node:module'; const require = __cliRequire(import.meta.url);",
    },
    plugins: [importMetaUrlPerSource(out)],
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

/** Replaces `import.meta.url` in each source under src/ by the URL of its compiled file in `out`. */
function importMetaUrlPerSource(out: string): Plugin {
  return {
    name: 'import-meta-url-per-source',
    setup(bundle) {
      bundle.onLoad({ filter: /\.tsx?$/ }, async (args) => {
        if (!args.path.startsWith(SRC)) return undefined;
        const text = await readFile(args.path, 'utf8');
        const compiled = join(out, relative(SRC, args.path).replace(/\.tsx?$/, '.js'));
        return {
          contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(compiled).href)),
          loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts',
        };
      });
    },
  };
}
