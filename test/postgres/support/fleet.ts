import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface Instance {
  url: string;
  process: ChildProcess;
  /** Everything the instance printed (for failure messages and takeover logs). */
  output: string[];
  exited: Promise<number | null>;
}

// tsx as a loader of this very process, not the tsx command: that one runs the server in a child
// process, so a kill -9 of it would leave the server running as an orphan.
const TSX_LOADER = ['--import', 'tsx'];
const MAIN = new URL('../../../src/cli/main.ts', import.meta.url).pathname;
const BUILT = new URL('../../../dist/cli/main.js', import.meta.url).pathname;

export interface InstanceOptions {
  /** Run the production build (benchmarks) instead of the sources through tsx (tests). */
  built?: boolean;
}

/**
 * Starts `credit-sandbox serve --database` (in memory without a URL) as its own process on a free
 * loopback port (so a test can kill -9 it) and resolves once it listens.
 */
export function startInstance(
  databaseUrl: string | undefined,
  extraArgs: string[] = [],
  options: InstanceOptions = {},
): Promise<Instance> {
  const args = ['serve', '--port', '0', '--host', '127.0.0.1', '--clock', 'frozen', ...extraArgs];
  if (databaseUrl) args.push('--database', databaseUrl);
  const entry = options.built ? [BUILT] : [...TSX_LOADER, MAIN];
  const child = spawn(process.execPath, [...entry, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DATABASE_URL: '', CREDIT_SANDBOX_CLIENT_ID: '', CREDIT_SANDBOX_CLIENT_SECRET: '' },
  });
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (line) => output.push(line));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`instance did not start:\n${output.join('\n')}`)),
      60_000,
    );
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      output.push(line);
      const match = /listening on (http:\/\/\S+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1] as string, process: child, output, exited });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`instance exited with ${code} before listening:\n${output.join('\n')}`));
    });
  });
}

/** SIGTERM (a graceful stop: last flush, leases given back), waiting for the exit. */
export async function stopInstance(instance: Instance): Promise<void> {
  if (instance.process.exitCode !== null || instance.process.signalCode !== null) return;
  instance.process.kill('SIGTERM');
  await instance.exited;
}

/** kill -9: no flush, no goodbye; its leases simply stop being renewed. */
export async function killInstance(instance: Instance): Promise<void> {
  instance.process.kill('SIGKILL');
  await instance.exited;
}
