// Swagger UI at /docs: time from navigation to the first render of every operation (each
// `.opblock` on the page), in a fresh headless Chromium (empty cache: a first visit), against the
// compiled server on loopback. Also the bytes on the wire for the page's script and the document,
// which Chromium asks for with `Accept-Encoding: gzip, deflate, br`. RUNS=5 visits (a new browser
// profile each), the median and every run printed with the machine's load.
// `npm run bench:docs` (Debian's Chromium at /usr/bin/chromium; `apt-get install -y chromium`).
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { buildDist, median } from './support.js';

const RUNS = Number(process.env.RUNS ?? 5);
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
];

buildDist();
// @ts-expect-error -- dist/ exists only after `npm run build`, which the line above ran.
const { startServer } = (await import('../dist/server.js')) as typeof import('../src/server.js');
const { BENCH_SERVER_OPTIONS } = await import('./servers/options.js');
const server = await startServer({ ...BENCH_SERVER_OPTIONS, rateLimit: 0 });
const loadBefore = loadavg()
  .map((x) => x.toFixed(2))
  .join(' / ');
const times: number[] = [];
const wire: Record<string, number> = {};
try {
  for (let run = 0; run < RUNS; run++) {
    const dir = mkdtempSync(join(tmpdir(), 'docs-render-'));
    const browser = await chromium.launchPersistentContext(dir, {
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: ARGS,
    });
    try {
      const page = await browser.newPage();
      page.on('response', async (res) => {
        const url = new URL(res.url());
        if (!/swagger-ui-bundle\.js$|openapi\.json$/.test(url.pathname)) return;
        const encoding = (await res.allHeaders())['content-encoding'] ?? 'identity';
        const sizes = await res.request().sizes();
        wire[`${url.pathname} (${encoding})`] = sizes.responseBodySize;
      });
      const started = performance.now();
      await page.goto(`${server.url}/docs/`);
      await page.waitForFunction('document.querySelectorAll(".opblock").length >= 60', undefined, {
        timeout: 120_000,
        polling: 50,
      });
      times.push(performance.now() - started);
    } finally {
      await browser.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
} finally {
  await server.close();
}
const loadAfter = loadavg()
  .map((x) => x.toFixed(2))
  .join(' / ');
console.log(
  `Swagger UI at /docs, first visit (fresh profile), until every operation is rendered: median **${Math.round(median(times))} ms** (${times.map((t) => Math.round(t)).join(', ')} ms); load average ${loadBefore} before, ${loadAfter} after.`,
);
for (const [what, bytes] of Object.entries(wire))
  console.log(`- ${what}: ${bytes.toLocaleString('en-US')} bytes on the wire`);
