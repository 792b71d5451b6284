import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { docBlocks, docFiles } from '../support/doc-blocks.js';
import { chains, chainTitle, runDocChain } from '../support/doc-run.js';
import { limitFor } from '../support/time-limits.js';

// Every shell block of README.md and docs/*.md runs here, in bash, against a real sandbox on
// loopback (a fresh one per block), with `credit-sandbox` / `npx credit-sandbox` the CLI of this
// checkout and every `curl` failing on a 4xx/5xx answer. Blocks marked
// `<!-- docs-test: skip … -->` (Docker, PostgreSQL, a command that runs until Ctrl-C) are listed
// as skipped with the reason and where they run instead.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

for (const file of docFiles(ROOT)) {
  const blocks = docBlocks(ROOT, file);
  if (blocks.length === 0) continue;
  describe.concurrent(file, () => {
    const all = chains(blocks);
    const elsewhere = all.filter((chain) => chain.some((block) => block.skip));
    if (elsewhere.length > 0) {
      // Blocks that need Docker, PostgreSQL, the tarball or run until Ctrl-C are not run here; each
      // must say why and where it runs instead (a CI step or another test file), or this fails.
      it(`says where each of its ${elsewhere.length} block(s) not run here runs instead`, () => {
        for (const chain of elsewhere) {
          const reason = chain.find((block) => block.skip)?.skip ?? '';
          expect(reason, chainTitle(chain)).toMatch(/\S{3,}.*\S{3,}/);
        }
      });
    }
    it('uses the one BASE convention: BASE ends in /v3, so no block writes $BASE/v3', () => {
      const doubled = blocks.filter((block) => /\$\{?BASE\}?\/v3\b/.test(block.script));
      expect(doubled.map((block) => `${block.file}:${block.line}`)).toEqual([]);
    });
    // Concurrently: each chain has its own server, partner data and working directory, and most
    // of a chain's time is spent waiting on the processes it runs (bash, the CLI, curl). A chain
    // shares the CPU with the four others vitest runs beside it: its limit is for their work too.
    for (const chain of all.filter((c) => !elsewhere.includes(c))) {
      it.concurrent(
        chainTitle(chain),
        async ({ expect }) => {
          const res = await runDocChain(chain);
          expect(res.code, res.output.slice(-3000)).toBe(0);
          expect(res.output).not.toMatch(/TypeError|undefined \(reading/);
        },
        limitFor(30_000),
      );
    }
  });
}
