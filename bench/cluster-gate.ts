// The shared-mode request gate on the read path, measured in-process (no sockets, no other
// process competing for the core): the same authenticated GETs through the app with and without
// the gate, alternating rounds. Run on its own: `npx tsx bench/cluster-gate.ts`.
import pg from 'pg';
import { createApp } from '../src/app.js';
import { Cluster } from '../src/cluster/cluster.js';
import { Forwarder } from '../src/cluster/forward.js';
import { clusterMiddleware } from '../src/cluster/middleware.js';
import { RequestPartners } from '../src/cluster/request-partner.js';
import { PostgresPersistence } from '../src/store/postgres/postgres-persistence.js';
import { createTestSandbox } from '../test/support/sandbox.js';

const REQUESTS = 10_000;
const ROUNDS = 15;

const plain = createTestSandbox();
const gated = createTestSandbox();
// A pool that is never used: every request here is for a partner this instance holds.
const pool = new pg.Pool({ connectionString: 'postgres://unused@127.0.0.1:1/unused' });
const cluster = new Cluster({
  pool,
  store: gated.deps.store,
  persistence: new PostgresPersistence(pool, gated.deps.store),
  engine: gated.deps.engine,
  webhooks: gated.deps.webhooks,
  log: { info: () => {}, error: () => {} },
  realNow: gated.deps.realNow,
});
cluster.confirmed(new Set(['ptn_default']), ['ptn_default']);
gated.deps.clusterGate = clusterMiddleware(
  cluster,
  new RequestPartners(gated.deps.store, pool),
  new Forwarder('bench'),
);
const gatedApp = createApp(gated.deps);

const token = await plain.token();
const gatedToken = await gated.token();
async function run(
  app: { request: (path: string, init: RequestInit) => Response | Promise<Response> },
  bearer: string,
) {
  const started = performance.now();
  for (let i = 0; i < REQUESTS; i++) {
    const res = await app.request('/v3/sandbox/clock', { headers: { authorization: `Bearer ${bearer}` } });
    if (res.status !== 200) throw new Error(`status ${res.status}`);
    await res.arrayBuffer();
  }
  return (REQUESTS / (performance.now() - started)) * 1000;
}
const ratios: number[] = [];
await run(plain.app, token);
await run(gatedApp, gatedToken);
for (let round = 0; round < ROUNDS; round++) {
  const a = await run(plain.app, token);
  const b = await run(gatedApp, gatedToken);
  ratios.push(b / a);
}
ratios.sort((x, y) => x - y);
console.log(
  `gated / plain authenticated GET /v3/sandbox/clock in-process: median ${ratios[Math.floor(ROUNDS / 2)]?.toFixed(3)} (rounds ${ratios.map((r) => r.toFixed(2)).join(', ')})`,
);
await pool.end();
process.exit(0);
