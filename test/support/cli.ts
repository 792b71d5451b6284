import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import type { RunningServer } from '../../src/server.js';
import { startQuietServer } from './test-server.js';
import { WAIT_LIMIT_MS } from './time-limits.js';

const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The CLI's own files (listen's secrets) go to a directory of this test process, never to ~/.config. */
const CONFIG_DIR = mkdtempSync(join(tmpdir(), 'credit-sandbox-config-'));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A sandbox server on 127.0.0.1 (port 0), frozen clocks, no rate limit, quiet log. */
export function startTestServer(scenarioDirs: string[] = []): Promise<RunningServer> {
  return startQuietServer({ scenarioDirs });
}

/**
 * One test server for the whole file: started before its tests, closed after them (registered
 * first, so the file's own `afterAll` hooks run before it closes).
 */
export function testServerForFile(scenarioDirs: string[] = []): { readonly url: string } {
  let server: RunningServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(scenarioDirs);
  });
  afterAll(async () => {
    await server?.close();
  });
  return {
    get url() {
      if (!server) throw new Error('the test server is not started yet (use it inside a test)');
      return server.url;
    },
  };
}

/** The default partner's access token on the sandbox at `url`. */
export async function defaultToken(url: string): Promise<string> {
  const basic = Buffer.from(`${DEFAULT_CLIENT_ID}:${DEFAULT_CLIENT_SECRET}`).toString('base64');
  const auth = await fetch(`${url}/v3/auth/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}` },
  });
  return ((await auth.json()) as { access_token: string }).access_token;
}

/** Calls the sandbox at `url` as the default partner (direct HTTP: a spawned CLI is slower). */
export async function defaultPartnerCall(
  url: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Response> {
  const token = await defaultToken(url);
  return fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** A fresh isolated partner named `name` on the sandbox at `url`, as env for the CLI. */
export async function partnerEnvOn(url: string, name: string): Promise<Record<string, string>> {
  const res = await defaultPartnerCall(url, 'POST', '/v3/sandbox/partners', { name });
  const partner = (await res.json()) as { client_id: string; client_secret: string };
  return {
    CREDIT_SANDBOX_URL: url,
    CREDIT_SANDBOX_CLIENT_ID: partner.client_id,
    CREDIT_SANDBOX_CLIENT_SECRET: partner.client_secret,
  };
}

/**
 * Starts the CLI as its own process: the sources compiled once for this run by the global setup
 * (test/support/cli-build.ts), or `node --import tsx src/cli/main.ts …` without it.
 */
export function spawnCli(args: string[], env: Record<string, string> = {}): ChildProcess {
  const built = process.env.CREDIT_SANDBOX_TEST_CLI;
  const entry = built ? [built] : ['--import', 'tsx', MAIN];
  return spawn(process.execPath, [...entry, ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', CREDIT_SANDBOX_CONFIG_DIR: CONFIG_DIR, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Runs the CLI to completion and collects its output and exit code. */
export function runCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const child = spawnCli(args, env);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Resolves with the first line of a stream that satisfies `match` (a hang after `timeoutMs`). */
export function waitForLine(
  stream: NodeJS.ReadableStream,
  match: (line: string) => boolean,
  timeoutMs = WAIT_LIMIT_MS,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(
      () => reject(new Error(`no matching line within ${timeoutMs} ms; got: ${buffer}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      for (const line of buffer.split('\n')) {
        if (match(line)) {
          clearTimeout(timer);
          stream.off('data', onData);
          resolve(line);
          return;
        }
      }
    };
    stream.on('data', onData);
  });
}

/** Waits for a process to exit and returns its code. */
export function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('close', (code) => resolve(code)));
}
