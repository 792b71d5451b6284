// The sandbox's authenticated read against Prism's mock server (`prism mock`) serving the sandbox's
// own OpenAPI document: same request, same machine, same run, alternating rounds. Prism is not a
// dependency: set PRISM_BIN to its `prism` executable (e.g. after `npm install @stoplight/prism-cli`
// in a directory outside the repo); without it the benchmark runs `npx --yes @stoplight/prism-cli`.
// Run: `npx tsx bench/prism.ts`.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchSession, buildDist, formatNumber, load, median, startChild } from './support.js';

const TARGET_RATIO = 20;
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const ROUND_SECONDS = Number(process.env.ROUND_SECONDS ?? 3);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
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
        non2xx: 0,
      },
      {
        label: 'Prism mock of the same document',
        // Prism matches the document's paths without the server URL's /v3.
        url: `${started.base}/sandbox/clock`,
        rps: [] as number[],
        non2xx: 0,
      },
    ];
    for (const t of targets) await load(t.url, { seconds: 2, headers });
    for (let round = 0; round < ROUNDS; round++) {
      for (const t of targets) {
        const result = await load(t.url, { seconds: ROUND_SECONDS, headers });
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
    const markdown = [
      `\`GET /v3/sandbox/clock\` with a bearer token, 32 connections, loopback, ${ROUNDS} alternating rounds of ${ROUND_SECONDS} s: the sandbox (production build, default flags, access log to /dev/null) against \`prism mock\` (@stoplight/prism-cli, \`--errors false\`) serving the sandbox's own \`/v3/openapi.json\`.`,
      '',
      '| server | 2xx answers per second (median) | non-2xx answers, all rounds |',
      '|---|---:|---:|',
      ...targets.map((t) => `| ${t.label} | ${formatNumber(median(t.rps))} | ${t.non2xx} |`),
      '',
      `Sandbox ÷ Prism: **${ratio.toFixed(1)}×** (per round ${perRound.map((x) => x.toFixed(1)).join(', ')}); target >= ${TARGET_RATIO}× — ${ok ? 'met' : 'MISSED'}.`,
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
