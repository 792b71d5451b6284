// Counts what one request costs on the request path, without timing anything: promises made and
// bytes allocated per request, for a representative read (`GET /v3/customers/{id}`) and write
// (`POST /v3/customers`), through Node's entry with a real IncomingMessage and ServerResponse (no
// socket: the network is not what is counted). Run by test/e2e/request-path-counts.test.ts in a
// process of its own with a young generation large enough that no garbage collection runs while
// a round is counted (`--max-semi-space-size`); rounds in which one ran anyway are discarded.
// Prints one JSON line: {read: {promises, bytes}, write: {promises, bytes}}.
import { createHook } from 'node:async_hooks';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { PerformanceObserver } from 'node:perf_hooks';
import { nodeEntryOf } from '../../src/app.js';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import { AccessLog } from '../../src/http/access-log.js';
import { basicOf, call, cpfOf, session } from './operation-data.js';
import { startQuietServer } from './test-server.js';

const ROUND = 500;
let collections = 0;
new PerformanceObserver((list) => {
  collections += list.getEntries().length;
}).observe({ entryTypes: ['gc'] });
let promises = 0;
createHook({
  init(_id, type) {
    if (type === 'PROMISE') promises += 1;
  },
}).enable();

const server = await startQuietServer({ rateLimit: 1_000_000 });
const s = await session(`${server.url}/v3`, basicOf(DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET));
const customer = await call<{ id: string }>(s, 'POST', '/customers', { cpf: cpfOf(12_345), name: 'Counted' });
const entry = nodeEntryOf(server.app);
const accessLog = new AccessLog('pretty', () => {});
const socket = new Socket();
let cpf = 30_000_000;

/** One request through Node's entry; resolves once its answer is written. */
function request(method: string, url: string, body?: string): Promise<number> {
  const req = new IncomingMessage(socket);
  req.method = method;
  req.url = url;
  req.headers = { host: '127.0.0.1', 'user-agent': 'counts/1', ...s.headers() };
  if (body !== undefined) {
    req.headers['content-type'] = 'application/json';
    req.headers['content-length'] = String(Buffer.byteLength(body));
    req.push(body);
  }
  req.push(null);
  req.complete = true;
  const res = new ServerResponse(req);
  return new Promise((resolve) => {
    const end = res.end.bind(res);
    res.end = ((...args: Parameters<typeof end>) => {
      const out = end(...args);
      resolve(res.statusCode);
      return out;
    }) as typeof res.end;
    if (!entry.node(req, res, accessLog)) throw new Error(`${method} ${url} was not taken by Node's entry`);
  });
}

const read = () => request('GET', `/v3/customers/${customer.id}`);
const write = () =>
  request(
    'POST',
    '/v3/customers',
    JSON.stringify({ cpf: cpfOf(cpf++), name: 'Counted Writer', email: 'c@example.com' }),
  );

/** Promises made per request and bytes allocated per request (median of the rounds without a collection). */
async function count(send: () => Promise<number>): Promise<{ promises: number; bytes: number }> {
  for (let i = 0; i < 100; i++) await send();
  const perRequest: number[] = [];
  const promised: number[] = [];
  for (let round = 0; round < 9 && perRequest.length < 5; round++) {
    await new Promise((resolve) => setImmediate(resolve));
    const before = { heap: process.memoryUsage().heapUsed, collections, promises };
    const statuses: Promise<number>[] = [];
    for (let i = 0; i < ROUND; i++) statuses.push(send());
    const answered = await Promise.all(statuses);
    const heap = process.memoryUsage().heapUsed;
    if (answered.some((status) => status >= 300))
      throw new Error(`answered ${answered.find((x) => x >= 300)}`);
    // This loop's own bookkeeping is two promises per request (`request`'s and Promise.all's `then`)
    // and a few for the round: counted out.
    promised.push(Math.floor((promises - before.promises - 2 * ROUND) / ROUND));
    if (collections === before.collections) perRequest.push((heap - before.heap) / ROUND);
  }
  const median = (values: number[]) =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
  return {
    promises: median(promised),
    bytes: perRequest.length > 0 ? Math.round(median(perRequest)) : Number.NaN,
  };
}

const result = { read: await count(read), write: await count(write) };
await server.close();
console.log(JSON.stringify(result));
process.exit(0);
