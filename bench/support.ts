import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { createServer } from 'node:net';
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
    // stdout to /dev/null: a sandbox's access log goes there, as `serve > /dev/null` would.
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
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
  /** Requests answered in the run. */
  total: number;
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
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    total: result.requests.total,
  };
}

/**
 * CPU time a bench server (bench/servers/sandbox.ts) has used so far, all its threads, user and
 * system, in microseconds: asked over the IPC channel, so read between loads, not during one.
 */
export function childCpuMicros(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown) => {
      const cpu = (message as { cpu?: { user: number; system: number } } | null)?.cpu;
      if (!cpu) return;
      child.off('message', onMessage);
      resolve(cpu.user + cpu.system);
    };
    child.on('message', onMessage);
    if (!child.send('cpu')) reject(new Error('the bench server has no IPC channel'));
  });
}

/**
 * A bench server's V8 heap in use and its count of collections so far (servers that answer 'heap'
 * on their IPC channel: bench/servers/answer-cpu.ts), read between loads.
 */
export function childHeap(child: ChildProcess): Promise<{ heap: number; collections: number }> {
  return new Promise((resolve) => {
    const onMessage = (m: unknown) => {
      const answer = m as { heap?: number; collections?: number };
      if (answer.heap === undefined) return;
      child.off('message', onMessage);
      resolve(answer as { heap: number; collections: number });
    };
    child.on('message', onMessage);
    child.send('heap');
  });
}

/** `load`, plus the server's CPU (all threads, user + system) per answered request in microseconds. */
export async function loadWithCpu(
  server: ChildProcess,
  url: string,
  options: { headers?: Record<string, string>; seconds?: number },
): Promise<LoadResult & { cpuMicros: number }> {
  const before = await childCpuMicros(server);
  const result = await load(url, options);
  const used = (await childCpuMicros(server)) - before;
  return { ...result, cpuMicros: used / Math.max(result.total, 1) };
}

export function formatNumber(n: number): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: 0 });
}

/** The middle value of a run's rounds (the upper middle for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** A bench partner's session on a sandbox started with the bench credential: its token and one customer. */
export async function benchSession(
  base: string,
): Promise<{ headers: Record<string, string>; customerId: string }> {
  const basic = Buffer.from('cid_bench:svc_cs_test_bench').toString('base64');
  const tokenRes = await fetch(`${base}/auth/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}` },
  });
  const { access_token } = (await tokenRes.json()) as { access_token: string };
  const headers = { authorization: `Bearer ${access_token}` };
  const customerRes = await fetch(`${base}/customers`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ cpf: '529.982.247-25', name: 'Bench Customer', email: 'bench@example.com' }),
  });
  const customer = (await customerRes.json()) as { id: string };
  return { headers, customerId: customer.id };
}

/** A loopback port free right now (for a child that must be told its port up front). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** One JSON call to a sandbox at `base` (a root URL): the parsed body, or an error past 2xx. */
export async function call(
  base: string,
  method: string,
  path: string,
  auth: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path} -> ${res.status} ${text.slice(0, 300)}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/** A partner made by `bearer` with a lifetime, its token, and one customer per CPF (the tenancy benches). */
export async function partnerWithCustomers(
  base: string,
  bearer: string,
  options: { name: string; expiresIn: number; cpfs: readonly string[] },
): Promise<{ id: string; token: string }> {
  const partner = await call(base, 'POST', '/v3/sandbox/partners', `Bearer ${bearer}`, {
    name: options.name,
    expires_in: options.expiresIn,
  });
  const basic = `Basic ${Buffer.from(`${partner.client_id}:${partner.client_secret}`).toString('base64')}`;
  const token = (await call(base, 'POST', '/v3/auth/token', basic)).access_token as string;
  for (const cpf of options.cpfs) {
    await call(base, 'POST', '/v3/customers', `Bearer ${token}`, { cpf, name: `${options.name} customer` });
  }
  return { id: partner.id as string, token };
}
