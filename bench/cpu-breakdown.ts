// Where the CPU of one request goes over a socket, sandbox against bare Hono, for a representative
// read (`GET /v3/customers/{id}`) and write (`POST /v3/customers`). Linux `perf record -e cpu-clock`
// samples each server process while autocannon loads it: on-CPU time only, of every thread, in
// the kernel, in Node's and V8's C++, in V8's builtins and in the JIT's code (named through
// `--perf-basic-prof`). V8's own sampler cannot show this: it counts time outside JavaScript
// (most of the kernel's, much of V8's) as idle or hides it in the function that called it.
//
// Each sample is put in one category by the function it fell in (CATEGORIES, first match wins);
// a category's samples over the requests answered in the window (autocannon's average rate over
// the load, which starts before the window and ends after it, times the window) give its µs per
// request. Prints one table per operation (category × side) and, for each, the functions whose
// cost differs most.
//
// `npx tsx bench/cpu-breakdown.ts` (env SECONDS=3 of sampling per side and operation, WARM_SECONDS=4).
// Needs `perf` (Debian: linux-perf) and permission to sample a child (root, or
// kernel.perf_event_paranoid ≤ 1); without them it says so and exits 2. About a minute.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { basicOf, call, cpfOf, session, writer } from '../test/support/operation-data.js';
import { startWith } from './operation-rounds.js';
import type { BareAnswer } from './servers/bare-operations.js';
import { buildDist } from './support.js';

const SECONDS = Number(process.env.SECONDS ?? 3);
const WARM_SECONDS = Number(process.env.WARM_SECONDS ?? 4);
const FREQUENCY = 4000;
/** JIT code named for perf (/tmp/perf-<pid>.map, removed at the end); V8's log file nowhere. */
const PERF_FLAGS = ['--perf-basic-prof', '--logfile=/dev/null'];

/** Categories of a sampled function, by its name (and `[k]` for the kernel); the first match wins. */
const CATEGORIES: [string, RegExp][] = [
  ['kernel (sockets, syscalls, scheduling)', /^\[k\]/],
  [
    'garbage collection and allocation',
    /Scaveng|MarkCompact|Marking|Sweep|Evacuat|RememberedSet|SlotSet|GCTracer|Heap::|MinorM|RecordWrite|WriteBarrier|AllocateRaw|Factory::New|MemoryAllocator|LocalHeap/,
  ],
  ['JSON parse and stringify', /Json|JSON/],
  ['Map, Set and WeakMap lookups', /OrderedHash|MapPrototype|SetPrototype|WeakCollection|WeakMap|Ephemeron/],
  [
    'property access not inlined (generic and megamorphic ICs)',
    /(Load|Store)(Global)?IC|Keyed(Load|Store)|GetProperty|SetProperty|LookupIterator|DefineKeyedOwn|HasProperty|CopyDataProperties|CreateShallowObjectLiteral/,
  ],
  [
    'calls, constructors, promises and async functions',
    /Builtins_Call|Construct|CompileLazy|Invoke|JSEntry|Promise|Microtask|Await|ResumeGenerator|AsyncFunction|Resolve|Reject|ArgumentsAdaptor/,
  ],
  ['strings and regular expressions', /String|RegExp|Utf8|Latin1|ToString|NumberTo|Flatten|Intl/],
  ['JavaScript: the sandbox (dist/)', /^JS:.*\/dist\//],
  ['JavaScript: libraries (hono, zod, …)', /^JS:.*node_modules/],
  ['JavaScript: Node (http, streams, timers)', /^JS:.*node:/],
  ['Node and libuv in C++ (HTTP parser, stream wraps)', /llhttp|node::|uv_|uv__|std::/],
  ['malloc, memmove and the rest of libc', /malloc|free|memmove|memcpy|memset|_int_|libc|clock_gettime/],
];
const OTHER = 'anything else (interpreter, array builtins, …)';

interface Side {
  name: 'sandbox' | 'bare';
  child: ChildProcess;
  port: number;
}

interface Operation {
  label: string;
  request: (side: Side['name']) => autocannon.Request;
}

const perfWorks = (): boolean => {
  try {
    execFileSync('perf', ['record', '-e', 'cpu-clock', '-o', '/dev/null', '--', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

function fire(side: Side, seconds: number, request: autocannon.Request): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(
      { url: `http://127.0.0.1:${side.port}`, connections: 32, duration: seconds, requests: [request] },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

/** Samples of the side's process per function over SECONDS of load, and the requests answered then. */
async function sample(side: Side, request: autocannon.Request, dir: string) {
  await fire(side, WARM_SECONDS, request);
  const data = join(dir, `${side.name}-${Date.now()}.data`);
  const pid = String(side.child.pid);
  // Load starts first and ends after the recording: every sampled moment is under load.
  const load = fire(side, SECONDS + 1, request);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const perf = spawn(
    'perf',
    [
      'record',
      '-e',
      'cpu-clock',
      '-F',
      String(FREQUENCY),
      '-p',
      pid,
      '-o',
      data,
      '--',
      'sleep',
      String(SECONDS),
    ],
    { stdio: 'ignore' },
  );
  await new Promise((resolve) => perf.on('exit', resolve));
  const result = await load;
  if (result.non2xx > 0) throw new Error(`${side.name}: ${result.non2xx} answers not 2xx`);
  const report = execFileSync(
    'perf',
    ['report', '-i', data, '--no-children', '--sort', 'sym', '-n', '--stdio', '-g', 'none'],
    {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  const samples = new Map<string, number>();
  for (const line of report.split('\n')) {
    const m = /^\s*[\d.]+%\s+(\d+)\s+(\[.\])\s+(.*)$/.exec(line);
    if (!m) continue;
    // JIT names carry the tier (`*` optimised, `~` interpreted, `^` baseline) and the process id.
    const name = `${m[2] === '[k]' ? '[k] ' : ''}${(m[3] as string)
      .replace(/^JS:[*~^+]?/, 'JS:')
      .replace(/ \(\/tmp\/perf-\d+\.map\)$/, '')
      .trim()}`;
    samples.set(name, (samples.get(name) ?? 0) + Number(m[1]));
  }
  return { samples, requests: result.requests.average * SECONDS };
}

const category = (name: string) => CATEGORIES.find(([, pattern]) => pattern.test(name))?.[0] ?? OTHER;
const perRequest = (count: number, requests: number) => (count / FREQUENCY / requests) * 1e6;

function table(
  label: string,
  mine: Awaited<ReturnType<typeof sample>>,
  theirs: Awaited<ReturnType<typeof sample>>,
) {
  const byCategory = (s: typeof mine) => {
    const out = new Map<string, number>();
    for (const [name, count] of s.samples)
      out.set(category(name), (out.get(category(name)) ?? 0) + perRequest(count, s.requests));
    return out;
  };
  const [a, b] = [byCategory(mine), byCategory(theirs)];
  const total = (m: Map<string, number>) => [...m.values()].reduce((x, y) => x + y, 0);
  const names = [...CATEGORIES.map(([name]) => name), OTHER];
  const rows = names.map((name) => {
    const [x, y] = [a.get(name) ?? 0, b.get(name) ?? 0];
    return `| ${name} | ${x.toFixed(1)} | ${y.toFixed(1)} | ${(x - y >= 0 ? '+' : '') + (x - y).toFixed(1)} |`;
  });
  const diffs = [...new Set([...mine.samples.keys(), ...theirs.samples.keys()])]
    .map(
      (name) =>
        [
          name,
          perRequest(mine.samples.get(name) ?? 0, mine.requests) -
            perRequest(theirs.samples.get(name) ?? 0, theirs.requests),
        ] as const,
    )
    .sort((x, y) => y[1] - x[1])
    .slice(0, 12)
    .map(
      ([name, d]) =>
        `${d.toFixed(2)} µs \`${name.replace(/file:\/\/\/\S*?\/(dist|node_modules)\//, '$1/').slice(0, 100)}\``,
    );
  return [
    `### \`${label}\`: ${total(a).toFixed(0)} µs of CPU per request in the sandbox, ${total(b).toFixed(0)} µs in bare Hono (${(mine.requests / SECONDS).toFixed(0)} and ${(theirs.requests / SECONDS).toFixed(0)} requests/s while sampled)`,
    '',
    '| where (on-CPU, all threads) | sandbox µs | bare µs | difference |',
    '|---|---:|---:|---:|',
    ...rows,
    `| **total** | **${total(a).toFixed(1)}** | **${total(b).toFixed(1)}** | **+${(total(a) - total(b)).toFixed(1)}** |`,
    '',
    `Largest single differences: ${diffs.join('; ')}.`,
  ].join('\n');
}

async function main() {
  if (!perfWorks()) {
    console.error(
      'bench/cpu-breakdown.ts needs Linux `perf` and permission to sample a child process (root, or kernel.perf_event_paranoid <= 1).',
    );
    process.exit(2);
  }
  const loadBefore = loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ');
  buildDist();
  const dir = mkdtempSync(join(tmpdir(), 'bench-cpu-'));
  const children: ChildProcess[] = [];
  try {
    const started = await startWith(
      './servers/sandbox.ts',
      { ACCESS_LOG: 'pretty', REQUEST_LOG_SIZE: '1000' },
      PERF_FLAGS,
    );
    children.push(started.child);
    const sandbox: Side = { name: 'sandbox', ...started };
    const w = await writer(
      await session(`http://127.0.0.1:${sandbox.port}/v3`, basicOf('cid_bench', 'svc_cs_test_bench')),
    );
    const customer = await call<{ id: string }>(w, 'GET', `/customers/${w.ids.customer_id}`);
    let next = Math.floor(Math.random() * 100_000_000);
    const newCustomer = () =>
      JSON.stringify({ cpf: cpfOf(next++), name: 'Bench Writer', email: 'w@example.com' });
    const created = await call<Record<string, unknown>>(w, 'POST', '/customers', JSON.parse(newCustomer()));
    const readPath = `/v3/customers/${customer.id}`;
    const answers: BareAnswer[] = [
      {
        method: 'GET',
        path: readPath,
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify(customer),
        parse: 'none',
      },
      {
        method: 'POST',
        path: '/v3/customers',
        status: 201,
        contentType: 'application/json',
        body: JSON.stringify(created),
        parse: 'json',
      },
    ];
    const file = join(dir, 'answers.json');
    writeFileSync(file, JSON.stringify(answers));
    const bareStarted = await startWith(
      './servers/bare-operations.ts',
      { OPERATIONS_FILE: file },
      PERF_FLAGS,
    );
    children.push(bareStarted.child);
    const bare: Side = { name: 'bare', ...bareStarted };
    const operations: Operation[] = [
      {
        label: 'GET /v3/customers/{customer_id}',
        request: (side) => ({
          method: 'GET',
          path: readPath,
          headers: side === 'sandbox' ? w.headers() : {},
        }),
      },
      {
        label: 'POST /v3/customers',
        request: (side) => {
          const sample = newCustomer();
          return {
            method: 'POST',
            path: '/v3/customers',
            headers: { 'content-type': 'application/json', ...(side === 'sandbox' ? w.headers() : {}) },
            setupRequest: (req: autocannon.Request) => ({
              ...req,
              body: side === 'sandbox' ? newCustomer() : sample,
            }),
          };
        },
      },
    ];
    const sections: string[] = [];
    for (const op of operations) {
      const mine = await sample(sandbox, op.request('sandbox'), dir);
      const theirs = await sample(bare, op.request('bare'), dir);
      sections.push(table(op.label, mine, theirs));
    }
    const loadAfter = loadavg()
      .map((x) => x.toFixed(2))
      .join(' / ');
    console.log(
      [
        `Run ${new Date().toISOString()}: ${WARM_SECONDS} s of load, then ${SECONDS} s sampled at ${FREQUENCY} Hz per side and operation, 32 connections, loopback, Node ${process.version}; load average (1 / 5 / 15 min) ${loadBefore} at the start, ${loadAfter} at the end.`,
        '',
        ...sections.flatMap((s) => [s, '']),
      ].join('\n'),
    );
  } finally {
    for (const child of children) {
      child.kill();
      rmSync(`/tmp/perf-${child.pid}.map`, { force: true });
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
