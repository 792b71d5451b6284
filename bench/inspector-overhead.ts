// The request inspector's cost on the hot path: the same authenticated GETs against two sandbox
// processes in the same run, one keeping the request log (default 1,000 per partner) and one with
// it off (--request-log-size 0, which still sets Request-Id).
import { pathToFileURL } from 'node:url';
import {
  benchSession,
  buildDist,
  formatNumber,
  type LoadResult,
  load,
  median,
  startChild,
} from './support.js';

const TARGET_RATIO = 0.9;
const ROUNDS = 7;
const ROUND_SECONDS = 3;

interface Side {
  label: string;
  base: string;
  headers: Record<string, string>;
  customerId: string;
}

async function prepare(label: string, port: number): Promise<Side> {
  const base = `http://127.0.0.1:${port}/v3`;
  const { headers, customerId } = await benchSession(base);
  return { label, base, headers, customerId };
}

export async function run(): Promise<{ name: string; markdown: string; ok: boolean }> {
  buildDist();
  const on = await startChild('./servers/sandbox.ts', { REQUEST_LOG_SIZE: '1000' });
  const off = await startChild('./servers/sandbox.ts', { REQUEST_LOG_SIZE: '0' });
  try {
    const sides = [await prepare('inspector on', on.port), await prepare('inspector off', off.port)];
    const paths = [
      { label: '`GET /v3/sandbox/clock`', path: () => '/sandbox/clock' },
      { label: '`GET /v3/customers/{id}`', path: (s: Side) => `/customers/${s.customerId}` },
    ];
    const results = new Map<string, LoadResult[]>();
    const key = (p: number, s: number) => `${p}:${s}`;
    for (const [p, target] of paths.entries()) {
      for (const [s, side] of sides.entries()) {
        await load(`${side.base}${target.path(side)}`, { seconds: 2, headers: side.headers });
        results.set(key(p, s), []);
      }
    }
    // Alternate short rounds so drift in machine speed hits both sides alike, and which side
    // goes first, so neither always runs right after the other's load.
    for (let round = 0; round < ROUNDS; round++) {
      for (const [p, target] of paths.entries()) {
        const order = round % 2 === 0 ? [0, 1] : [1, 0];
        for (const s of order) {
          const side = sides[s] as Side;
          const result = await load(`${side.base}${target.path(side)}`, {
            seconds: ROUND_SECONDS,
            headers: side.headers,
          });
          if (result.non2xx > 0) throw new Error(`${side.label} ${target.label}: ${result.non2xx} non-2xx`);
          results.get(key(p, s))?.push(result);
        }
      }
    }
    const lines: string[] = [];
    const ratios: number[] = [];
    for (const [p, target] of paths.entries()) {
      const withLog = results.get(key(p, 0)) ?? [];
      const without = results.get(key(p, 1)) ?? [];
      const perRound = withLog.map((r, i) => r.requestsPerSecond / (without[i]?.requestsPerSecond ?? 1));
      const ratio = median(perRound);
      ratios.push(ratio);
      lines.push(
        `| ${target.label} | ${formatNumber(median(withLog.map((r) => r.requestsPerSecond)))} | ${formatNumber(median(without.map((r) => r.requestsPerSecond)))} | **${ratio.toFixed(2)}** (${perRound.map((x) => x.toFixed(2)).join(', ')}) |`,
      );
    }
    const ok = ratios.every((r) => r >= TARGET_RATIO);
    const markdown = [
      `Two sandbox processes (production build), the same authenticated GETs: one records every request in the partner's request log (ring of 1,000, bodies redacted), the other runs with \`--request-log-size 0\` (only \`Request-Id\`). ${ROUNDS} alternating rounds of ${ROUND_SECONDS} s, 32 connections, loopback.`,
      '',
      '| request | req/s inspector on (median) | req/s inspector off (median) | ratio on / off (median; per round) |',
      '|---|---:|---:|---|',
      ...lines,
      '',
      `Target: every ratio >= ${TARGET_RATIO} — ${ok ? 'met' : 'MISSED'}.`,
    ].join('\n');
    return { name: 'Request inspector overhead', markdown, ok };
  } finally {
    on.child.kill();
    off.child.kill();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await run();
  console.log(`## ${result.name}\n\n${result.markdown}`);
}
