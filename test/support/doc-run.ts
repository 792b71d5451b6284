import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import { startTestServer } from './cli.js';
import { checkStatuses, type DocBlock, fillPlaceholders } from './doc-blocks.js';

// How test/e2e/docs-commands.test.ts runs a documented block: in bash, against a real sandbox on
// loopback (a fresh one per chain of blocks), with `credit-sandbox` / `npx credit-sandbox` the CLI
// of this checkout, and every `curl` run with `--fail-with-body`, so that a documented call
// answered 4xx or 5xx fails the block — unless it prints its status and says which it expects
// (`-w '%{http_code}' … # 422`), which is then checked (see test/support/doc-prelude.sh).
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = join(ROOT, 'src/cli/main.ts');

/** Shell functions every block gets: the CLI, the README's `j`, BASE and TOKEN, placeholder ids. */
const PRELUDE = readFileSync(join(ROOT, 'test/support/doc-prelude.sh'), 'utf8');

/** Consecutive blocks joined by `continues` run as one script. */
export function chains(blocks: DocBlock[]): DocBlock[][] {
  const out: DocBlock[][] = [];
  for (const block of blocks) {
    const last = out.at(-1);
    if (block.continues && last) last.push(block);
    else out.push([block]);
  }
  return out;
}

export function chainTitle(chain: DocBlock[]): string {
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

async function defaultToken(url: string): Promise<string> {
  const basic = Buffer.from(`${DEFAULT_CLIENT_ID}:${DEFAULT_CLIENT_SECRET}`).toString('base64');
  const res = await fetch(`${url}/v3/auth/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}` },
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

/** Runs one chain of blocks against a fresh sandbox; the exit code and everything it printed. */
export async function runDocChain(chain: DocBlock[]): Promise<{ code: number | null; output: string }> {
  const server = await startTestServer();
  try {
    const token = await defaultToken(server.url);
    // A partner that has been at it a while: one refused request, for `requests show req_…`.
    const refused = await fetch(`${server.url}/v3/loans`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    if (refused.status < 400) throw new Error(`POST /v3/loans {} answered ${refused.status}`);
    const body = chain
      .flatMap((block) => (block.twice ? [block.script, block.script] : [block.script]))
      .map((script) =>
        checkStatuses(fillPlaceholders(script.replaceAll('http://127.0.0.1:8080', server.url))),
      )
      .join('\n');
    return await runBash(
      `${PRELUDE}\n${body}\n`,
      {
        CREDIT_SANDBOX_URL: server.url,
        CREDIT_SANDBOX_CLIENT_ID: '',
        CREDIT_SANDBOX_CLIENT_SECRET: '',
        DEFAULT_ID: DEFAULT_CLIENT_ID,
        DEFAULT_SECRET: DEFAULT_CLIENT_SECRET,
        DEFAULT_TOKEN: token,
        CLI_MAIN: MAIN,
        CREDIT_SANDBOX_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'docs-test-config-')),
      },
      mkdtempSync(join(tmpdir(), 'docs-test-')),
    );
  } finally {
    await server.close();
  }
}
