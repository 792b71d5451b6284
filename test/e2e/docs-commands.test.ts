import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import { startTestServer } from '../support/cli.js';
import { type DocBlock, docBlocks, docFiles, fillPlaceholders } from '../support/doc-blocks.js';

// Every shell block of README.md and docs/*.md runs here, in bash, against a real sandbox on
// loopback (a fresh one per block), with `credit-sandbox` / `npx credit-sandbox` the CLI of this
// checkout. Blocks marked `<!-- docs-test: skip … -->` (Docker, PostgreSQL, a command that runs
// until Ctrl-C) are listed as skipped with the reason and where they run instead.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = join(ROOT, 'src/cli/main.ts');

/** Shell functions every block gets: the CLI, the README's `j`, BASE and TOKEN, placeholder ids. */
const PRELUDE = readFileSync(join(ROOT, 'test/support/doc-prelude.sh'), 'utf8');

/** Consecutive blocks joined by `continues` run as one script. */
function chains(blocks: DocBlock[]): DocBlock[][] {
  const out: DocBlock[][] = [];
  for (const block of blocks) {
    const last = out.at(-1);
    if (block.continues && last) last.push(block);
    else out.push([block]);
  }
  return out;
}

function title(chain: DocBlock[]): string {
  const first = chain[0] as DocBlock;
  const lines = chain.map((b) => `${b.line}${b.twice ? ' (twice)' : ''}`).join(', ');
  const skip = chain.find((b) => b.skip)?.skip;
  return `${first.file}:${lines}${skip ? ` — not run here: ${skip}` : ''}`;
}

function runBash(script: string, env: Record<string, string>, cwd: string) {
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd, env: { ...process.env, NO_COLOR: '1', ...env } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

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
          expect(reason, title(chain)).toMatch(/\S{3,}.*\S{3,}/);
        }
      });
    }
    // Concurrently: each chain has its own server, partner data and working directory, and most
    // of a chain's time is spent waiting on the processes it runs (bash, the CLI, curl).
    for (const chain of all.filter((c) => !elsewhere.includes(c))) {
      it.concurrent(title(chain), async ({ expect }) => {
        const server = await startTestServer();
        try {
          // A partner that has been at it a while: one refused request, for `requests show req_…`.
          const token = await fetch(`${server.url}/v3/auth/token`, {
            method: 'POST',
            headers: {
              authorization: `Basic ${Buffer.from(`${DEFAULT_CLIENT_ID}:${DEFAULT_CLIENT_SECRET}`).toString('base64')}`,
            },
          }).then(async (res) => ((await res.json()) as { access_token: string }).access_token);
          const refused = await fetch(`${server.url}/v3/loans`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: '{}',
          });
          expect(refused.status).toBeGreaterThanOrEqual(400);
          const body = chain
            .flatMap((block) => (block.twice ? [block.script, block.script] : [block.script]))
            .map((script) => fillPlaceholders(script.replaceAll('http://127.0.0.1:8080', server.url)))
            .join('\n');
          const res = await runBash(
            `${PRELUDE}\n${body}\n`,
            {
              CREDIT_SANDBOX_URL: server.url,
              CREDIT_SANDBOX_CLIENT_ID: '',
              CREDIT_SANDBOX_CLIENT_SECRET: '',
              DEFAULT_ID: DEFAULT_CLIENT_ID,
              DEFAULT_SECRET: DEFAULT_CLIENT_SECRET,
              DEFAULT_TOKEN: token,
              CLI_MAIN: MAIN,
            },
            mkdtempSync(join(tmpdir(), 'docs-test-')),
          );
          expect(res.code, res.output.slice(-3000)).toBe(0);
          expect(res.output).not.toMatch(/TypeError|undefined \(reading/);
        } finally {
          await server.close();
        }
      }, 180_000);
    }
  });
}
