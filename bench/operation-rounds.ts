// The measuring primitives of bench/operations.ts: one round of load on one side (autocannon over
// loopback, the server's CPU read around it) and the bytes a side allocates per request.
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { childCpuMicros, childHeap, median } from './support.js';

export const CONNECTIONS = 32;

export interface Spec {
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** A fresh body per request (a write). */
  body?: () => string | Buffer;
  /** A fresh target and body per request (a write on a resource of its own). */
  next?: () => { path: string; body?: string | Buffer };
  /** Headers read when the round starts (a token renewed before it), instead of `headers`. */
  headersOf?: () => Record<string, string>;
}

export interface Case {
  label: string;
  write: boolean;
  sandbox: Spec;
  bare: Spec;
  /** Requests per round when the round is counted, not timed (loans: each consumes an offer). */
  amount?: number;
  /**
   * Run before each round of the sandbox with its number of requests (an inspector entry falls out
   * of the log after 1,000 requests; a consuming write makes what each request acts on).
   */
  prepare?: (n: number) => Promise<void>;
  /** How the bare app reads a write's body. */
  parse?: 'json' | 'form' | 'none';
}

export interface Round {
  rps: number;
  cpu: number;
  non2xx: number;
}

export async function fire(
  child: ChildProcess,
  base: string,
  spec: Spec,
  seconds: number,
  amount?: number,
): Promise<Round> {
  const before = await childCpuMicros(child);
  const started = performance.now();
  const statuses = new Map<number, number>();
  let instance: ReturnType<typeof autocannon.track> | undefined;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
        url: base,
        connections: amount === undefined ? CONNECTIONS : Math.min(CONNECTIONS, amount),
        pipelining: 1,
        ...(amount === undefined ? { duration: seconds } : { amount }),
        requests: [
          {
            method: spec.method as 'GET',
            path: spec.path,
            headers: {
              ...(spec.body ? { 'content-type': 'application/json' } : {}),
              ...(spec.headersOf?.() ?? spec.headers),
            },
            ...((spec.body || spec.next) && {
              setupRequest: (req: autocannon.Request) => {
                if (spec.next) {
                  const next = spec.next();
                  req.path = next.path;
                  if (next.body !== undefined) req.body = next.body;
                } else req.body = (spec.body as () => string)();
                return req;
              },
            }),
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    ) as unknown as ReturnType<typeof autocannon.track>;
  });
  // A counted round is timed from its first request sent to its last answer: autocannon itself
  // ends a round on its next one-second tick, which would swamp a round of a hundred requests.
  let first = Number.POSITIVE_INFINITY;
  let last = 0;
  (instance as unknown as NodeJS.EventEmitter).on(
    'response',
    (_client: unknown, status: number, _bytes: number, responseTime: number) => {
      if (status >= 300) statuses.set(status, (statuses.get(status) ?? 0) + 1);
      const now = performance.now();
      first = Math.min(first, now - responseTime);
      last = now;
    },
  );
  const result = await done;
  const elapsed = (amount === undefined || last === 0 ? performance.now() - started : last - first) / 1000;
  if (result.non2xx > 0)
    console.error(`${spec.method} ${spec.path}: answers ${JSON.stringify(Object.fromEntries(statuses))}`);
  const used = (await childCpuMicros(child)) - before;
  const total = result.requests.total;
  return {
    rps: total / Math.max(elapsed, 0.001),
    cpu: used / Math.max(total, 1),
    non2xx: result.non2xx,
  };
}

export async function allocated(
  child: ChildProcess,
  base: string,
  spec: Spec,
  amount: number,
  prepare?: (n: number) => Promise<void>,
): Promise<number> {
  const perRequest: number[] = [];
  for (let round = 0; round < 5 && perRequest.length < 3; round++) {
    await prepare?.(amount);
    const before = await childHeap(child);
    await fire(child, base, spec, 0, amount);
    const after = await childHeap(child);
    if (after.collections === before.collections) perRequest.push((after.heap - before.heap) / amount);
  }
  return perRequest.length > 0 ? median(perRequest) : Number.NaN;
}

/** A bench server started with extra V8 flags (a large young generation: no collection in a round). */
export async function startWith(script: string, env: Record<string, string>, flags: string[]) {
  const child = fork(fileURLToPath(new URL(script, import.meta.url)), [], {
    execArgv: ['--import', 'tsx', ...flags],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...process.env, ...env },
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { child, port };
}
