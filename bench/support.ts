import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

/** Compiles src/ to dist/ (`npm run build`), so benchmarks measure what the Docker image runs. */
export function buildDist(): void {
  execFileSync('npm', ['run', '--silent', 'build'], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: 'inherit',
  });
}

/** Starts a bench server script in its own process (so it gets its own core) and waits for its port. */
export async function startChild(
  script: string,
  env: Record<string, string> = {},
): Promise<{ port: number; child: ChildProcess; message: Record<string, unknown> }> {
  const child = fork(fileURLToPath(new URL(script, import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, ...env },
  });
  const message = await new Promise<Record<string, unknown>>((resolve, reject) => {
    child.once('message', (m) => resolve(m as Record<string, unknown>));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { port: message.port as number, child, message };
}

export interface LoadResult {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
}

/** A bounded autocannon run against loopback. */
export async function load(
  url: string,
  options: { headers?: Record<string, string>; seconds?: number; connections?: number } = {},
): Promise<LoadResult> {
  const result = await autocannon({
    url,
    headers: options.headers,
    duration: options.seconds ?? 8,
    connections: options.connections ?? 32,
    pipelining: 1,
  });
  return { requestsPerSecond: result.requests.average, p99Ms: result.latency.p99, non2xx: result.non2xx };
}

export function formatNumber(n: number): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: 0 });
}
