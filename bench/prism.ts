// The sandbox's authenticated read against Prism's mock server (`prism mock`) serving the sandbox's
// own OpenAPI document: same request, same machine, same run, alternating rounds. Prism is not a
// dependency: set PRISM_BIN to its `prism` executable (e.g. after `npm install @stoplight/prism-cli`
// in a directory outside the repo); without it the benchmark runs `npx --yes @stoplight/prism-cli`.
// Run: `npx tsx bench/prism.ts`.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  benchSession,
  buildDist,
  childCpuMicros,
  formatNumber,
  freePort,
  load,
  median,
  startChild,
} from './support.js';

const TARGET_RATIO = 20;
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const ROUND_SECONDS = Number(process.env.ROUND_SECONDS ?? 3);

/**
 * CPU time (user + system, µs) a process has used, from /proc (Linux; 10 ms ticks), or undefined
 * where there is no /proc. Prism has no IPC channel to ask, and its throughput here is bounded by
 * its own CPU while the sandbox's can be bounded by the load generator: CPU per answer compares
 * the two servers without the client in the way.
 */
function procCpuMicros(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat (utime, stime), counted after the command name's ')'.
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return undefined;
  }
}

async function startPrism(document: string): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const args = ['mock', '-h', '127.0.0.1', '-p', String(port), '--errors', 'false', document];
  const bin = process.env.PRISM_BIN;
  const child = bin
    ? spawn(bin, args, { stdio: ['ignore', 'pipe', 'inherit'] })
    : spawn('npx', ['--yes', '@stoplight/prism-cli', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout?.resume();
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    try {
      await fetch(`${base}/sandbox/clock`, { headers: { authorization: 'Bearer x' } });
      return { child, base };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  child.kill();
  throw new Error('prism did not start');
}

export async function run(): Promise<{ name: string; markdown: string; ok: boolean }> {
  buildDist();
  const sandbox = await startChild('./servers/sandbox.ts', {
    ACCESS_LOG: 'pretty',
    REQUEST_LOG_SIZE: '1000',
  });
  let prism: ChildProcess | undefined;
  try {
    const sandboxBase = `http://127.0.0.1:${sandbox.port}`;
    const { headers } = await benchSession(`${sandboxBase}/v3`);
    const document = join(mkdtempSync(join(tmpdir(), 'prism-')), 'openapi.json');
    writeFileSync(document, await (await fetch(`${sandboxBase}/v3/openapi.json`)).text());
    const started = await startPrism(document);
    prism = started.child;
    const targets = [
      {
        label: 'credit-sandbox (default flags)',
        url: `${sandboxBase}/v3/sandbox/clock`,
        rps: [] as number[],
        cpu: [] as number[],
        non2xx: 0,
        cpuMicros: (): Promise<number | undefined> => childCpuMicros(sandbox.child),
      },
      {
        label: 'Prism mock of the same document',
        // Prism matches the document's paths without the server URL's /v3.
        url: `${started.base}/sandbox/clock`,
        rps: [] as number[],
        cpu: [] as number[],
        non2xx: 0,
        // With PRISM_BIN the spawned process is Prism's node itself; through npx it is npx.
        cpuMicros: async (): Promise<number | undefined> =>
          process.env.PRISM_BIN ? procCpuMicros(prism?.pid) : undefined,
      },
    ];
    for (const t of targets) await load(t.url, { seconds: 2, headers });
    for (let round = 0; round < ROUNDS; round++) {
      for (const t of targets) {
        const cpuBefore = await t.cpuMicros();
        const result = await load(t.url, { seconds: ROUND_SECONDS, headers });
        const cpuAfter = await t.cpuMicros();
        const answered = result.total - result.non2xx;
        if (cpuBefore !== undefined && cpuAfter !== undefined && answered > 0) {
          t.cpu.push((cpuAfter - cpuBefore) / answered);
        }
        if (t === targets[0] && result.non2xx > 0) throw new Error(`${t.label}: ${result.non2xx} non-2xx`);
        // Prism answers some requests with errors under load: only its 2xx answers count.
        t.non2xx += result.non2xx;
        t.rps.push(result.requestsPerSecond * (1 - result.non2xx / Math.max(result.total, 1)));
      }
    }
    const [ours, theirs] = targets as [(typeof targets)[0], (typeof targets)[0]];
    const perRound = ours.rps.map((r, i) => r / (theirs.rps[i] ?? Number.NaN));
    const ratio = median(perRound);
    const ok = ratio >= TARGET_RATIO;
    const cpuPerRound =
      theirs.cpu.length === ours.cpu.length ? theirs.cpu.map((c, i) => c / (ours.cpu[i] ?? Number.NaN)) : [];
    const cpuLine =
      cpuPerRound.length > 0
        ? `Server CPU per 2xx answer, Prism ÷ sandbox: **${median(cpuPerRound).toFixed(1)}×** (per round ${cpuPerRound.map((x) => x.toFixed(1)).join(', ')}): what each answer costs the server, whatever limits the load generator puts on the faster one.`
        : 'Server CPU per answer: not measured (needs PRISM_BIN and /proc).';
    const markdown = [
      `\`GET /v3/sandbox/clock\` with a bearer token, 32 connections, loopback, ${ROUNDS} alternating rounds of ${ROUND_SECONDS} s: the sandbox (production build, default flags, access log to /dev/null) against \`prism mock\` (@stoplight/prism-cli, \`--errors false\`) serving the sandbox's own \`/v3/openapi.json\`.`,
      '',
      '| server | 2xx answers per second (median) | server CPU µs per 2xx answer (median) | non-2xx answers, all rounds |',
      '|---|---:|---:|---:|',
      ...targets.map(
        (t) =>
          `| ${t.label} | ${formatNumber(median(t.rps))} | ${t.cpu.length > 0 ? median(t.cpu).toFixed(0) : '—'} | ${t.non2xx} |`,
      ),
      '',
      `Sandbox ÷ Prism: **${ratio.toFixed(1)}×** (per round ${perRound.map((x) => x.toFixed(1)).join(', ')}); target >= ${TARGET_RATIO}× — ${ok ? 'met' : 'MISSED'}.`,
      '',
      cpuLine,
    ].join('\n');
    return { name: 'Authenticated read vs Prism mock', markdown, ok };
  } finally {
    prism?.kill();
    sandbox.child.kill();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await run();
  console.log(`## ${result.name}\n\n${result.markdown}`);
}
