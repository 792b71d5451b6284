// CPU per call of the hot-read handler (src/http/hot-reads.ts) in process: the production build's
// handler, a real ServerResponse without a socket (so Node's header work counts, the network does
// not), the access log on (`pretty`, into a counter) and the request inspector at its default.
// Far less noisy than bench/http-get.ts on a shared machine, for comparing two builds of the same
// handler: `npx tsx bench/hot-read-cpu.ts` (ROOT=<checkout with dist/> to measure another build,
// ROUNDS=9). A loop turn every 32 calls. The last line is Node's own floor: writeHead + end of
// the same clock JSON.
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { HotReads } from '../src/http/hot-reads.js';
import type { startServer as StartServer } from '../src/server.js';
import { BENCH_SERVER_OPTIONS } from './servers/options.js';
import { buildDist } from './support.js';

const ROOT = process.env.ROOT ?? fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.env.ROUNDS ?? 9);
const CALLS = 50_000;
const CLOCK = { now: '2026-03-02T12:00:00.000Z', frozen: true };

const dist = (path: string) => import(pathToFileURL(join(ROOT, 'dist', path)).href);

if (!process.env.ROOT) buildDist();
const { startServer } = (await dist('server.js')) as { startServer: typeof StartServer };
const { hotReads } = (await dist('http/hot-reads.js')) as {
  hotReads: (deps: unknown, log: unknown) => HotReads | undefined;
};
const { AccessLog } = (await dist('http/access-log.js')) as {
  AccessLog: new (format: 'pretty', write: (text: string) => void) => unknown;
};
const server = await startServer({ ...BENCH_SERVER_OPTIONS, rateLimit: 1_000_000_000, accessLog: 'off' });
const basic = Buffer.from('cid_bench:svc_cs_test_bench').toString('base64');
const tokenRes = await fetch(`${server.url}/v3/auth/token`, {
  method: 'POST',
  headers: { authorization: `Basic ${basic}` },
});
const { access_token: token } = (await tokenRes.json()) as { access_token: string };
const created = await fetch(`${server.url}/v3/customers`, {
  method: 'POST',
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  body: JSON.stringify({ cpf: '529.982.247-25', name: 'Bench Customer', email: 'bench@example.com' }),
});
const { id: customerId } = (await created.json()) as { id: string };
// The first request verifies the token; the hot reads answer only tokens seen before.
await fetch(`${server.url}/v3/sandbox/clock`, { headers: { authorization: `Bearer ${token}` } });

let printed = 0;
const accessLog = new AccessLog('pretty', (text) => {
  printed += text.length;
});
const hot = hotReads(server.deps, accessLog);
if (!hot) throw new Error('no hot reads in this build');
const socket = new Socket();
// A flat header string, as Node's parser hands it over.
const authorization = Buffer.from(`Bearer ${token}`).toString('latin1');

function request(path: string): { req: IncomingMessage; res: ServerResponse } {
  const req = new IncomingMessage(socket);
  req.method = 'GET';
  req.url = path;
  req.headers = { host: '127.0.0.1', authorization, 'user-agent': 'autocannon/7' };
  return { req, res: new ServerResponse(req) };
}

const cases: [string, () => void][] = [
  [
    'GET /v3/sandbox/clock',
    () => {
      const { req, res } = request('/v3/sandbox/clock');
      if (!hot(req, res)) throw new Error('the clock read was not answered hot');
    },
  ],
  [
    'GET /v3/customers/{id}',
    () => {
      const { req, res } = request(`/v3/customers/${customerId}`);
      if (!hot(req, res)) throw new Error('the customer read was not answered hot');
    },
  ],
  [
    "Node's floor: writeHead + end of the clock JSON",
    () => {
      const { res } = request('/x');
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(CLOCK));
    },
  ],
];

const perCall = new Map<string, number[]>();
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, call] of cases) {
    const before = process.cpuUsage();
    for (let i = 0; i < CALLS; i++) {
      call();
      // A loop turn every 32 calls, as 32 connections give: the access log and the request log
      // write once per turn.
      if (i % 32 === 31) await new Promise((resolve) => setImmediate(resolve));
    }
    const used = process.cpuUsage(before);
    const list = perCall.get(name) ?? [];
    list.push((used.user + used.system) / CALLS);
    perCall.set(name, list);
  }
}
await server.close();
if (printed === 0) throw new Error('the access log printed nothing');

console.log(`| call (${ROOT}) | CPU µs per call, min of ${ROUNDS} rounds | lower quartile | median |`);
console.log('|---|---:|---:|---:|');
for (const [name, values] of perCall) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => (sorted[Math.floor((sorted.length - 1) * q)] as number).toFixed(2);
  console.log(`| ${name} | ${at(0)} | ${at(0.25)} | ${at(0.5)} |`);
}
