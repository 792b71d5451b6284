// Dashboard page weight and server render time for a partner with 10,000 customers.
// In-process (app.request, no socket): render time is the handler's time, including its API calls
// through the app. Weight is what a browser transfers with gzip: the page and the scripts it loads.
// Part of `npm run bench`; alone: `npm run bench:dashboard`.

import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { createApp } from '../src/app.js';
import { createDeps } from '../src/deps.js';
import { registerCustomer } from '../src/domain/customers/register-customer.js';
import { createPartner } from '../src/domain/partners.js';
import { generateCpf } from '../src/finance/cpf.js';
import { DEFAULT_CONFIG } from '../src/http/deps.js';
import { sequentialIds } from '../src/lib/ids.js';
import { memoryPersistence } from '../src/store/persistence.js';
import { Store } from '../src/store/store.js';
import { median } from './support.js';

const CUSTOMERS = 10_000;
const RUNS = 60;
const NAMES = ['Ana', 'Bruno', 'Carla', 'Davi', 'Elisa', 'Fábio', 'Gabi', 'Hugo'];

export async function run(): Promise<{ name: string; markdown: string; ok: boolean }> {
  let now = Date.parse('2026-03-02T12:00:00Z');
  let bytes = 0;
  const deps = createDeps({
    store: new Store(Buffer.alloc(32, 3).toString('base64url')),
    persistence: memoryPersistence,
    ids: sequentialIds(),
    randomBytes: (size) => {
      // Distinct bytes per call (sign-in ids, secrets), reproducible from run to run.
      bytes += 1;
      return Buffer.alloc(size, bytes % 256);
    },
    realNow: () => now,
    config: { ...DEFAULT_CONFIG, rateLimit: 0, clockMode: 'frozen', publicUrl: 'http://127.0.0.1:8080' },
    log: { info: () => {}, error: (m, e) => console.error(m, e) },
    webhookSender: async () => ({ statusCode: 200, retryAfter: null, body: '' }),
  });
  const { partner, credential, secret } = createPartner(deps, { name: 'bench', clockMode: 'frozen' });
  const app = createApp(deps);
  for (let k = 0; k < CUSTOMERS; k++) {
    now += 1000;
    registerCustomer(deps.engine.context(partner.id), {
      cpf: generateCpf(String(100_000_000 + k)),
      name: `${NAMES[k % NAMES.length]} ${k}`,
    });
  }

  const basic = `Basic ${Buffer.from(`${credential.id}:${secret}`).toString('base64')}`;
  const token = (
    (await (
      await app.request('/v3/auth/token', { method: 'POST', headers: { authorization: basic } })
    ).json()) as {
      access_token: string;
    }
  ).access_token;
  // One whole loan journey (customer, KYC, offer, loan, installments), through the API.
  const run = await app.request('/v3/sandbox/scenarios/happy-path/runs', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  const loanId = ((await run.json()) as { steps: { response?: { body: unknown } }[] }).steps
    .map((s) => JSON.stringify(s.response?.body ?? ''))
    .join(' ')
    .match(/ln_[0-9a-f]{32}/)?.[0];
  const customerId = deps.store.loans.get(loanId ?? '')?.customer_id;
  if (!loanId || !customerId) throw new Error('the happy-path run made no loan');

  // Sign in as a browser would.
  const form = await app.request('/dashboard/sign-in');
  const nonce = (form.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
  const signedIn = await app.request('/dashboard/sign-in', {
    method: 'POST',
    headers: { cookie: nonce, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrf, client_id: credential.id, client_secret: secret }).toString(),
  });
  const session = (
    signedIn.headers.getSetCookie().find((c) => c.startsWith('credit_sandbox_session')) ?? ''
  ).split(';')[0] as string;

  async function gzipSize(path: string): Promise<number> {
    const res = await app.request(path, { headers: { cookie: session } });
    return gzipSync(Buffer.from(await res.arrayBuffer())).length;
  }
  const scripts =
    (await gzipSize('/dashboard/assets/htmx.min.js')) + (await gzipSize('/dashboard/assets/sse.js'));

  const PAGES: [string, string][] = [
    ['Sign-in', '/dashboard/sign-in'],
    ['Overview', '/dashboard'],
    ['Customers (first page)', '/dashboard/customers'],
    [
      'Customers (deep cursor)',
      `/dashboard/customers?starting_after=${deps.store.customerIdx.sorted.created_at.all.rows(partner.id)[CUSTOMERS / 2]?.id}`,
    ],
    ['Customers (search by CPF)', `/dashboard/customers?q=${generateCpf('100005000')}`],
    ['Customer', `/dashboard/customers/${customerId}`],
    ['Loans', '/dashboard/loans'],
    ['Loan', `/dashboard/loans/${loanId}`],
    ['Events', '/dashboard/events'],
    ['Webhooks', '/dashboard/webhooks'],
    ['Requests', '/dashboard/requests'],
    ['Scenarios', '/dashboard/scenarios'],
  ];

  const rows: string[] = [];
  let worstMs = 0;
  let worstKb = 0;
  // Warm-up: the first renders of each page pay for JIT compilation, not for the page.
  for (let k = 0; k < 20; k++) {
    for (const [, path] of PAGES) await (await app.request(path, { headers: { cookie: session } })).text();
  }
  for (const [name, path] of PAGES) {
    const times: number[] = [];
    let html = '';
    let live = false;
    for (let k = 0; k < RUNS; k++) {
      const start = performance.now();
      const res = await app.request(path, { headers: { cookie: session } });
      html = await res.text();
      times.push(performance.now() - start);
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    }
    live = html.includes('/dashboard/assets/htmx.min.js');
    const page = gzipSync(Buffer.from(html)).length;
    const transferred = (page + (live ? scripts : 0)) / 1024;
    const ms = median(times);
    worstMs = Math.max(worstMs, ms);
    worstKb = Math.max(worstKb, transferred);
    rows.push(
      `| ${name} | ${ms.toFixed(2)} | ${(page / 1024).toFixed(1)} | ${live ? 'yes' : 'no'} | ${transferred.toFixed(1)} |`,
    );
  }

  const ok = worstMs < 20 && worstKb < 150;
  const markdown = [
    '`npm run bench:dashboard` (`bench/dashboard.ts`; in-process through `app.request`, no socket, so',
    "the render time is the server's: session check, the page's calls to the API through the app, JSX",
    `rendering). One partner with ${CUSTOMERS.toLocaleString('en-US')} customers and one loan made by the happy-path scenario;`,
    `median of ${RUNS} renders per page after a warm-up. Weight is what a browser transfers: the page gzipped (the`,
    'dashboard compresses its responses) plus, for the live pages, htmx and its SSE extension',
    `(${(scripts / 1024).toFixed(1)} KB gzipped).`,
    '',
    '| page | render ms (median) | HTML KB gzip | loads htmx + sse | transferred KB |',
    '|---|---:|---:|---|---:|',
    ...rows,
    '',
    `Targets: every page under 150 KB transferred (heaviest: ${worstKb.toFixed(1)} KB) and rendered in under 20 ms at`,
    `${CUSTOMERS.toLocaleString('en-US')} customers (slowest: ${worstMs.toFixed(2)} ms). List pages show 25 rows and page by cursor; the`,
    "Overview's counts read the per-status index sizes instead of paging through the list.",
  ].join('\n');
  return { name: 'Dashboard: page weight and render time', markdown, ok };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await run();
  console.log(`## ${result.name}\n\n${result.markdown}`);
  if (!result.ok) process.exitCode = 1;
}
