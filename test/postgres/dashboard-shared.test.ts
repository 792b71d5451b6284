import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_CLIENT_ID,
  DEFAULT_CLIENT_SECRET,
  DEFAULT_PARTNER_ID,
} from '../../src/domain/default-partner.js';
import { generateCpf } from '../../src/finance/cpf.js';
import { launchChromium } from '../browser/harness.js';
import { freshDatabase, query } from './support/database.js';
import { type Instance, killInstance, startInstance, stopInstance } from './support/fleet.js';
import { type RoundRobinProxy, startProxy } from './support/round-robin-proxy.js';

// The dashboard of a shared sandbox: Chromium talks to two instances through a round-robin proxy
// (no stickiness), so consecutive pages, form posts and the live stream land on either instance.
const PAGES = [
  ['/dashboard', 'Overview'],
  ['/dashboard/customers', 'Customers'],
  ['/dashboard/loans', 'Loans'],
  ['/dashboard/events', 'Events'],
  ['/dashboard/webhooks', 'Webhooks'],
  ['/dashboard/requests', 'Requests'],
  ['/dashboard/scenarios', 'Scenarios'],
] as const;

let databaseUrl: string;
let fleet: Instance[] = [];
let alive: Instance[] = [];
let proxy: RoundRobinProxy;
let chromium: Browser;
let context: BrowserContext;
let page: Page;
const pageErrors: string[] = [];
let cpfs = 100_200_300;

async function token(base: string): Promise<string> {
  const res = await fetch(`${base}/v3/auth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${DEFAULT_CLIENT_ID}:${DEFAULT_CLIENT_SECRET}`).toString('base64')}`,
    },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** Registers a customer through one given instance; returns its id. */
async function customerVia(base: string, name: string): Promise<string> {
  const res = await fetch(`${base}/v3/customers`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await token(base)}`, 'content-type': 'application/json' },
    body: JSON.stringify({ cpf: generateCpf(String(cpfs++)), name }),
  });
  const text = await res.text();
  expect(res.status, text).toBe(201);
  return (JSON.parse(text) as { id: string }).id;
}

async function ownerOfDefault(): Promise<Instance> {
  const [lease] = await query<{ owner_url: string }>(
    databaseUrl,
    'SELECT owner_url FROM partner_leases WHERE partner_id = $1 AND expires_at > now()',
    [DEFAULT_PARTNER_ID],
  );
  const owner = fleet.find((i) => i.url === lease?.owner_url);
  if (!owner) throw new Error(`no live owner of ${DEFAULT_PARTNER_ID}: ${JSON.stringify(lease)}`);
  return owner;
}

/** The events page's row of a customer's creation. */
const createdRow = (customerId: string) =>
  page.locator(`#events tr[data-event-type="customer.created"] a[href="/dashboard/customers/${customerId}"]`);

beforeAll(async () => {
  databaseUrl = await freshDatabase('dashboard_shared');
  const args = ['--hosted-safety', 'off', '--lease', '3000', '--rate-limit', '0'];
  fleet = await Promise.all([startInstance(databaseUrl, args), startInstance(databaseUrl, args)]);
  alive = fleet;
  proxy = await startProxy(() => alive.map((i) => i.url));
  chromium = await launchChromium();
  context = await chromium.newContext();
  page = await context.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
});

afterAll(async () => {
  await context?.close();
  await chromium?.close();
  await proxy?.close();
  await Promise.all(fleet.map((i) => stopInstance(i)));
});

describe('the dashboard of a shared sandbox, behind a round-robin proxy', () => {
  it('signs in, shows every page and runs an action, whichever instance each request lands on', async () => {
    await page.goto(`${proxy.url}/dashboard`);
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
    await page.getByLabel('Client ID').fill(DEFAULT_CLIENT_ID);
    await page.getByLabel('Client secret').fill(DEFAULT_CLIENT_SECRET);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForLoadState();
    expect(new URL(page.url()).pathname).toBe('/dashboard');

    const customerId = await customerVia(proxy.url, 'Dashboard Shared');
    for (const [path, title] of [...PAGES, [`/dashboard/customers/${customerId}`, 'Dashboard Shared']]) {
      const res = await page.goto(`${proxy.url}${path}`);
      expect(res?.status(), path).toBe(200);
      expect(new URL(page.url()).pathname, path).toBe(path);
      await expect(page.locator('main').textContent(), path).resolves.toContain(title);
    }
    // Every page twice over two instances: both served some of them.
    for (const instance of fleet) expect(proxy.counts.get(instance.url) ?? 0).toBeGreaterThan(3);

    // An action (a form post with the session's CSRF token): advance the partner clock.
    await page.goto(`${proxy.url}/dashboard`);
    await page.getByLabel('Advance by').fill('1h');
    await page.getByRole('button', { name: 'Advance' }).click();
    await page.waitForLoadState();
    await expect(page.locator('body').textContent()).resolves.toContain('Clock advanced by 1h.');
    const clock = await fetch(`${proxy.url}/v3/sandbox/clock`, {
      headers: { authorization: `Bearer ${await token(proxy.url)}` },
    });
    expect(((await clock.json()) as { now: string }).now).toBeTruthy();
  });

  it('live events reach the page while the writes go through the other instance; a killed owner and the page continues', async () => {
    let navigations = 0;
    const connected = page.waitForResponse((r) => r.url().includes('/dashboard/events/stream'));
    await page.goto(`${proxy.url}/dashboard/events`);
    await connected;
    page.on('framenavigated', () => {
      navigations += 1;
    });

    const owner = await ownerOfDefault();
    const other = fleet.find((i) => i !== owner) as Instance;
    // Written through the instance that does not own the partner (it forwards to the owner).
    for (const name of ['Live One', 'Live Two']) {
      const id = await customerVia(other.url, name);
      await createdRow(id).waitFor({ timeout: 5_000 });
    }

    // kill -9 the owner: the stream breaks, the browser reconnects (Last-Event-ID) through the
    // proxy to the survivor, which takes the partner over once its lease has expired.
    await killInstance(owner);
    alive = [other];
    const afterKill = await customerVia(other.url, 'After The Kill');
    await createdRow(afterKill).waitFor({ timeout: 30_000 });
    const later = await customerVia(other.url, 'Later Still');
    await createdRow(later).waitFor({ timeout: 5_000 });
    expect(navigations).toBe(0);
    expect(other.output.join('\n')).toContain(`took over partner ${DEFAULT_PARTNER_ID}`);
    // Each event shown once (the catch-up after the reconnect does not repeat what was shown).
    const ids = await page
      .locator('#events tr[data-event-type]')
      .evaluateAll((rows) => rows.map((row) => row.id));
    expect(new Set(ids).size).toBe(ids.length);
    // And the page, reloaded, is served by the survivor.
    expect((await page.goto(`${proxy.url}/dashboard/customers/${afterKill}`))?.status()).toBe(200);
    expect(pageErrors).toEqual([]);
  });
});
