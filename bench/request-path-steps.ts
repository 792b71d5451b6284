// Where each microsecond of a read goes on the request path: `GET /v3/customers/{id}` through Node's
// entry in process (the production build, a real IncomingMessage and ServerResponse without a
// socket: the network is the same for every server and is not counted), access log `pretty` and
// request inspector on. The CPU per request is measured first without a profiler (min of ROUNDS
// rounds); a sampling profile of the same loop then splits it by step (each step's inclusive share
// of the samples × the CPU per request). Beside it, the same answer by a bare Hono app through
// @hono/node-server, and Node's floor (writeHead + end of the same headers and body).
// `npx tsx bench/request-path-steps.ts` (ROOT=<checkout with dist/> to measure another build).
import { IncomingMessage, ServerResponse } from 'node:http';
import { Session } from 'node:inspector/promises';
import { Socket } from 'node:net';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { BENCH_SERVER_OPTIONS } from './servers/options.js';
import { buildDist } from './support.js';

const ROOT = process.env.ROOT ?? fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.env.ROUNDS ?? 7);
const CALLS = 20_000;
const dist = (path: string) => import(pathToFileURL(join(ROOT, 'dist', path)).href);

/** Steps: a label and how to recognise its functions in the profile (file, function name). */
const STEPS: [string, RegExp][] = [
  ['route match (Hono RegExpRouter)', /split-router\.js match$/],
  [
    'context: OperationContext (Hono Context) and the request facts',
    /(operation-context\.js OperationContext|request-facts\.js NodeRequestFacts)$/,
  ],
  ['admission: bearer token (cached), partner, clock, rate limit', /admission\.js (anon|authenticate)$/],
  ['validation: path parameter by its pattern', /validation\.js checkUrl$/],
  ['the operation: the row, its JSON kept per row version', /api\/customers\.js anon$/],
  ['request inspector entry', /record\.js anon$/],
  ['writing the answer: headers, Content-Length, writeHead + end', /entries\.js write$/],
  ['access log line', /access-log\.js line$/],
];

if (!process.env.ROOT) buildDist();
const { startServer } = (await dist('server.js')) as typeof import('../src/server.js');
const { nodeEntryOf } = (await dist('app.js')) as typeof import('../src/app.js');
const { AccessLog } = (await dist('http/access-log.js')) as typeof import('../src/http/access-log.js');
const server = await startServer({ ...BENCH_SERVER_OPTIONS, rateLimit: 1_000_000_000, accessLog: 'off' });
const basic = Buffer.from('cid_bench:svc_cs_test_bench').toString('base64');
const token = (
  (await (
    await fetch(`${server.url}/v3/auth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}` },
    })
  ).json()) as { access_token: string }
).access_token;
const created = await fetch(`${server.url}/v3/customers`, {
  method: 'POST',
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  body: JSON.stringify({ cpf: '529.982.247-25', name: 'Bench Customer', email: 'bench@example.com' }),
});
const customerId = ((await created.json()) as { id: string }).id;
const path = `/v3/customers/${customerId}`;
const body = await (
  await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } })
).text();

const entry = nodeEntryOf(server.app);
const accessLog = new AccessLog('pretty', () => {});
const bare = new Hono();
const view = JSON.parse(body) as object;
bare.get('/v3/customers/:id', (c) => c.json(view));
const bareListener = getRequestListener(bare.fetch);
const socket = new Socket();
const authorization = `Bearer ${token}`;

function call(listener: (req: IncomingMessage, res: ServerResponse) => unknown): void {
  const req = new IncomingMessage(socket);
  req.method = 'GET';
  req.url = path;
  req.headers = { host: '127.0.0.1', authorization, 'user-agent': 'autocannon/7' };
  listener(req, new ServerResponse(req));
}
const sandbox = (req: IncomingMessage, res: ServerResponse) => entry.node(req, res, accessLog);
const floor = (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, [
    'Request-Id',
    'req_0123456789abcdef0000000000000001',
    'RateLimit-Limit',
    '1000000000',
    'RateLimit-Remaining',
    '999999999',
    'RateLimit-Reset',
    '1',
    'content-type',
    'application/json',
    'Content-Length',
    String(Buffer.byteLength(body)),
  ]);
  res.end(body);
};

async function loop(listener: (req: IncomingMessage, res: ServerResponse) => unknown): Promise<void> {
  for (let i = 0; i < CALLS; i++) {
    call(listener);
    // A loop turn every 32 calls, as 32 connections give: the logs write once per turn.
    if (i % 32 === 31) await new Promise((resolve) => setImmediate(resolve));
  }
}

async function cpuPerCall(listener: (req: IncomingMessage, res: ServerResponse) => unknown): Promise<number> {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < ROUNDS; round++) {
    const before = process.cpuUsage();
    await loop(listener);
    const used = process.cpuUsage(before);
    best = Math.min(best, (used.user + used.system) / CALLS);
  }
  return best;
}

const load = loadavg()
  .map((x) => x.toFixed(2))
  .join(' / ');
await loop(sandbox);
await loop(bareListener);
const mine = await cpuPerCall(sandbox);
const theirs = await cpuPerCall(bareListener);
const node = await cpuPerCall(floor);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 50 });
await session.post('Profiler.start');
await loop(sandbox);
const { profile } = (await session.post('Profiler.stop')) as {
  profile: { nodes: ProfileNode[]; samples: number[] };
};
await server.close();

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const counts = new Map<number, number>();
for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
const name = (n: ProfileNode) =>
  `${n.callFrame.url.split('/').slice(-2).join('/')} ${n.callFrame.functionName || 'anon'}`;
const inclusive = (id: number): number => {
  const n = byId.get(id) as ProfileNode;
  return (counts.get(id) ?? 0) + (n.children ?? []).reduce((sum, child) => sum + inclusive(child), 0);
};
// The samples inside the entry itself (the loop's own request objects excluded).
const entryNodes = profile.nodes.filter((n) => /entries\.js node$/.test(name(n)));
const inEntry = entryNodes.reduce((sum, n) => sum + inclusive(n.id), 0);
const shareOf = (pattern: RegExp): number => {
  let samples = 0;
  const seen = new Set<number>();
  const walk = (id: number) => {
    const n = byId.get(id) as ProfileNode;
    if (pattern.test(name(n)) && !seen.has(id)) {
      seen.add(id);
      samples += inclusive(id);
      return;
    }
    for (const child of n.children ?? []) walk(child);
  };
  for (const n of entryNodes) walk(n.id);
  return samples;
};
const total = profile.samples.length;
console.log(
  `CPU µs per \`GET /v3/customers/{id}\` in process (min of ${ROUNDS} rounds of ${CALLS}; load average ${load}): sandbox **${mine.toFixed(2)}**, bare Hono ${theirs.toFixed(2)}, Node's floor (writeHead + end of the same answer) ${node.toFixed(2)}. Of the sandbox's, the request path's entry (everything but the loop's own request objects) is ${((100 * inEntry) / total).toFixed(0)} %:`,
);
console.log('');
console.log('| step | µs per request | share |');
console.log('|---|---:|---:|');
let named = 0;
for (const [label, pattern] of STEPS) {
  const samples = shareOf(pattern);
  named += samples;
  console.log(
    `| ${label} | ${((mine * samples) / total).toFixed(2)} | ${((100 * samples) / total).toFixed(1)} % |`,
  );
}
console.log(
  `| the rest of the entry (request id, the pipeline's own steps, garbage collection inside it) | ${((mine * (inEntry - named)) / total).toFixed(2)} | ${((100 * (inEntry - named)) / total).toFixed(1)} % |`,
);
console.log(
  `| outside the entry (the loop's IncomingMessage / ServerResponse, end of turn: logs appended) | ${((mine * (total - inEntry)) / total).toFixed(2)} | ${((100 * (total - inEntry)) / total).toFixed(1)} % |`,
);
