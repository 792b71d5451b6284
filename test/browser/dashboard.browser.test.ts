import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import { WAIT_LIMIT_MS } from '../support/time-limits.js';
import { type BrowserHarness, launchChromium, startBrowserHarness } from './harness.js';

const PNG = readFileSync(new URL('../../fixtures/sample.png', import.meta.url));
const SHOTS = new URL('../../docs/dashboard/', import.meta.url);
const SCENARIOS = new URL('./fixtures/', import.meta.url).pathname;

let harness: BrowserHarness;
let url: string;
/** JavaScript off: every page must read, and every form post and redirect, without it. */
let noScript: BrowserContext;
/** JavaScript on, for the live pages. */
let chromium: Browser;
/** The loan the flow tests drive (the small-screen test shows it too). */
let loanId: string;
const api = <T>(method: string, path: string, body?: unknown) => harness.api<T>(method, path, body);

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: new URL(`${name}.png`, SHOTS).pathname, fullPage: true });
}

async function signIn(page: Page, secret = DEFAULT_CLIENT_SECRET): Promise<void> {
  await page.goto(`${url}/dashboard`);
  expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
  await page.getByLabel('Client ID').fill(DEFAULT_CLIENT_ID);
  await page.getByLabel('Client secret').fill(secret);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForLoadState();
}

/** A customer with every KYC item submitted and an open biometrics session (no review yet). */
async function customerReadyForReview(cpf: string, name: string): Promise<string> {
  const customer = await api<{ id: string }>('POST', '/v3/customers', {
    cpf,
    name,
    external_id: `crm-${cpf}`,
  });
  expect(customer.status).toBe(201);
  const id = customer.body.id;
  for (const type of ['identity_card_front', 'identity_card_back', 'selfie']) {
    const form = new FormData();
    form.set('type', type);
    form.set('file', new File([new Uint8Array(PNG)], 'doc.png', { type: 'image/png' }));
    expect(
      (await harness.fetch(`/v3/customers/${id}/documents`, { method: 'POST', body: form })).status,
    ).toBe(201);
  }
  expect((await api('POST', `/v3/customers/${id}/biometrics`)).status).toBe(200);
  return id;
}

/** A contracted loan waiting for the signature, for an active customer. */
async function loanAwaitingSignature(customerId: string): Promise<string> {
  const offers = await api<{ data: { id: string; installments: number }[] }>(
    'GET',
    `/v3/customers/${customerId}/credit-offers`,
  );
  const offer = offers.body.data[0] as { id: string; installments: number };
  const sim = await api<{ id: string }>('POST', `/v3/credit-offers/${offer.id}/simulations`, {
    requested_amount: '10000.00',
    installment_count: offer.installments,
  });
  const loan = await api<{ id: string }>('POST', '/v3/loans', {
    credit_offer_id: offer.id,
    simulation_id: sim.body.id,
  });
  expect(loan.status).toBe(201);
  await api('POST', '/v3/sandbox/clock/advance', { by: '3s' });
  return loan.body.id;
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  harness = await startBrowserHarness({ scenarioDirs: [SCENARIOS] });
  url = harness.server.url;
  noScript = harness.browser;
  chromium = await launchChromium();
});

afterAll(async () => {
  await chromium?.close();
  await harness?.close();
});

describe('dashboard sign-in', () => {
  it('a wrong secret shows an error and no data; the dashboard stays closed', async () => {
    await api('POST', '/v3/customers', { cpf: '529.982.247-25', name: 'Secret Customer' });
    const page = await noScript.newPage();
    await signIn(page, 'svc_cs_test_wrong');
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
    await expect(page.getByRole('alert').textContent()).resolves.toContain('Sign-in failed');
    expect(await page.getByRole('link', { name: 'Customers' }).count()).toBe(0);
    expect(await page.content()).not.toContain('Secret Customer');
    await shot(page, 'sign-in-error');
    await page.goto(`${url}/dashboard/customers`);
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
    await page.close();
  });

  it('the session cookie is HttpOnly and SameSite=Strict and holds no secret', async () => {
    const page = await noScript.newPage();
    await signIn(page);
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    const cookie = (await noScript.cookies(`${url}/dashboard`)).find(
      (c) => c.name === 'credit_sandbox_session',
    );
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/dashboard' });
    expect(cookie?.value).not.toContain(DEFAULT_CLIENT_SECRET);
    expect(Buffer.from(cookie?.value.split('.')[0] ?? '', 'base64url').toString()).not.toContain('svc_cs_');
    await page.close();
  });

  it('a form posted without the CSRF token is refused and changes nothing', async () => {
    const before = await api<{ frozen: boolean }>('GET', '/v3/sandbox/clock');
    const res = await noScript.request.post(`${url}/dashboard/clock/resume`, { form: { by: '1d' } });
    expect(res.status()).toBe(403);
    expect((await api<{ frozen: boolean }>('GET', '/v3/sandbox/clock')).body.frozen).toBe(before.body.frozen);
  });
});

describe('dashboard flows (JavaScript off: forms post and redirect)', () => {
  let customerId: string;

  it('a customer created through the API appears; Approve KYC makes it active and an offer appears', async () => {
    customerId = await customerReadyForReview('123.456.007-05', 'Maria da Silva');
    const page = await noScript.newPage();
    await page.goto(`${url}/dashboard/customers`);
    const row = page.locator(`tr[data-customer="${customerId}"]`);
    await expect(row.textContent()).resolves.toContain('Maria da Silva');
    await expect(row.locator('.badge').textContent()).resolves.toBe('pending kyc');
    await shot(page, 'customers');

    await page.goto(`${url}/dashboard/customers?q=123.456.007-05`);
    expect(await page.locator('tr[data-customer]').count()).toBe(1);
    await page.goto(`${url}/dashboard/customers?q=no-such-crm-id`);
    await expect(page.getByRole('status').textContent()).resolves.toContain('No customer matches');

    await page.goto(`${url}/dashboard/customers/${customerId}`);
    await page.getByRole('button', { name: 'Complete biometrics' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Biometrics completed');
    await expect(page.locator('tr[data-kyc="biometrics"] .badge').textContent()).resolves.toBe('approved');
    await page.getByRole('button', { name: 'Approve KYC' }).click();
    await expect(page.locator('section.card .badge').first().textContent()).resolves.toBe('active');
    await expect(page.locator('#offers tr[data-offer] .badge').first().textContent()).resolves.toBe(
      'available',
    );
    await expect(page.locator('#offers').textContent()).resolves.toContain('R$ ');
    await shot(page, 'customer');
    const customer = await api<{ status: string }>('GET', `/v3/customers/${customerId}`);
    expect(customer.body.status).toBe('active');
    await page.close();
  });

  it('Sign, then "Advance by" 35d: an installment shows overdue with days and late charges; Pay installment pays it', async () => {
    loanId = await loanAwaitingSignature(customerId);
    const page = await noScript.newPage();
    await page.goto(`${url}/dashboard/loans/${loanId}`);
    await expect(page.locator('#timeline li.current').textContent()).resolves.toContain(
      'awaiting signatures',
    );
    await shot(page, 'loan-awaiting-signature');
    await page.getByRole('button', { name: 'Sign', exact: true }).click();
    await expect(page.locator('#timeline li[data-state="signed"]').getAttribute('class')).resolves.toBe(
      'current',
    );

    await page.goto(`${url}/dashboard`);
    await page.getByLabel('Advance by').fill('10s');
    await page.getByRole('button', { name: 'Advance' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Clock advanced by 10s');
    await page.getByLabel('Advance by').fill('35d');
    await page.getByRole('button', { name: 'Advance' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Clock advanced by 35d');
    await expect(page.locator('[data-count="active"]').last().textContent()).resolves.toContain('1');
    await shot(page, 'overview');

    await page.goto(`${url}/dashboard/loans/${loanId}`);
    const first = page.locator('#installments tr[data-installment="1"]');
    await expect(first.getAttribute('data-status')).resolves.toBe('overdue');
    const days = Number(await first.locator('[data-days-overdue]').textContent());
    expect(days).toBeGreaterThan(0);
    const charges = (await first.locator('td[data-label="Late charges"]').textContent()) ?? '';
    expect(charges).toMatch(/^R\$ \d+,\d\d/);
    expect(charges.startsWith('R$ 0,00')).toBe(false);
    for (const state of ['processing', 'contract_generated', 'awaiting_signatures', 'signed', 'disbursing']) {
      await expect(page.locator(`#timeline li[data-state="${state}"]`).getAttribute('class')).resolves.toBe(
        'done',
      );
    }
    await expect(page.locator('#timeline li[data-state="active"] .when').textContent()).resolves.toMatch(
      /UTC$/,
    );
    await shot(page, 'loan-overdue');

    await first.getByRole('button', { name: 'Pay installment' }).click();
    await expect(page.getByRole('status').first().textContent()).resolves.toContain('Installment 1 paid');
    await expect(
      page.locator('#installments tr[data-installment="1"]').getAttribute('data-status'),
    ).resolves.toBe('paid');
    const tx = await api<{ data: { status: string }[] }>('GET', `/v3/loans/${loanId}/transactions`);
    expect(tx.body.data[0]?.status).toBe('paid');
    await expect(page.locator('#payments').textContent()).resolves.toContain('installment 1');
    await shot(page, 'loan');

    await page.goto(`${url}/dashboard/loans`);
    await expect(page.locator(`tr[data-loan="${loanId}"] .badge`).textContent()).resolves.toBe('active');
    await shot(page, 'loans');
    await page.close();
  });

  it("a failed delivery shows the receiver's status and body; the endpoint its chaos settings", async () => {
    const receiver: Server = createServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' }).end('receiver exploded');
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const port = (receiver.address() as AddressInfo).port;
    try {
      const endpoint = await api<{ id: string }>('POST', '/v3/webhooks/endpoints', {
        url: `http://127.0.0.1:${port}/hook`,
        events: ['customer.*'],
        description: 'QA receiver (answers 500)',
      });
      expect(endpoint.status).toBe(201);
      await api('POST', '/v3/customers', { cpf: '111.444.777-35', name: 'Webhook Target' });
      await harness.server.deps.webhooks.idle();
      const chaos = await harness.fetch(`/v3/sandbox/webhooks/endpoints/${endpoint.body.id}/chaos`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ duplicate_rate: 0.2, drop_rate: 0.1 }),
      });
      expect(chaos.status).toBe(200);
      const page = await noScript.newPage();
      await page.goto(`${url}/dashboard/webhooks`);
      await expect(
        page.locator(`tr[data-endpoint="${endpoint.body.id}"] [data-chaos]`).textContent(),
      ).resolves.toBe('duplicates 20 % · drops 10 %');
      await expect(page.locator(`tr[data-endpoint="${endpoint.body.id}"]`).textContent()).resolves.toContain(
        `127.0.0.1:${port}`,
      );
      const delivery = page.locator('#deliveries tr[data-delivery]').first();
      await expect(delivery.locator('[data-receiver-status]').first().textContent()).resolves.toBe(
        'HTTP 500',
      );
      await expect(delivery.textContent()).resolves.toContain('retry at');
      await expect(delivery.locator('[data-receiver-body]').first().textContent()).resolves.toBe(
        'receiver exploded',
      );
      await shot(page, 'webhooks');
      await page.close();
    } finally {
      receiver.close();
    }
  });

  it('the Requests page lists the dashboard actions with their bodies (not its page reads)', async () => {
    const page = await noScript.newPage();
    await page.goto(`${url}/dashboard/requests`);
    await shot(page, 'requests');
    await page.goto(`${url}/dashboard/requests?method=POST&path=/v3/sandbox/clock/advance`);
    const rows = page.locator('#requests tr[data-request]');
    await expect(rows.first().textContent()).resolves.toContain('POST /v3/sandbox/clock/advance');
    await rows.first().locator('a').click();
    await expect(page.locator('h1').textContent()).resolves.toBe('POST /v3/sandbox/clock/advance');
    await expect(page.locator('main').textContent()).resolves.toMatch(/"by": "(35d|10s)"/);
    await shot(page, 'request');
    await page.goto(`${url}/dashboard/requests?method=GET&path=/v3/sandbox/events`);
    await expect(page.getByRole('status').textContent()).resolves.toContain('No request matches');
    await page.close();
  });

  it("another partner's ids answer not found, with none of its data", async () => {
    const other = await api<{ client_id: string; client_secret: string }>('POST', '/v3/sandbox/partners', {
      name: 'other team',
    });
    const token = await fetch(`${url}/v3/auth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${other.body.client_id}:${other.body.client_secret}`).toString('base64')}`,
      },
    }).then(async (r) => ((await r.json()) as { access_token: string }).access_token);
    const theirs = await fetch(`${url}/v3/customers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ cpf: '390.533.447-05', name: 'Other Partner Customer' }),
    }).then(async (r) => ((await r.json()) as { id: string }).id);
    const page = await noScript.newPage();
    const res = await page.goto(`${url}/dashboard/customers/${theirs}`);
    expect(res?.status()).toBe(404);
    await expect(page.locator('h1').textContent()).resolves.toBe('Not found');
    expect(await page.content()).not.toContain('Other Partner Customer');
    await page.goto(`${url}/dashboard/customers`);
    expect(await page.content()).not.toContain('Other Partner Customer');
    expect((await page.goto(`${url}/dashboard/loans/ln_${'0'.repeat(32)}`))?.status()).toBe(404);
    await page.close();
  });
});

describe('dashboard live pages (JavaScript on)', () => {
  let context: BrowserContext;
  let page: Page;
  /** Script errors and CSP refusals on the live pages: there must be none. */
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    context = await chromium.newContext();
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    await signIn(page);
  });

  afterAll(async () => {
    await context?.close();
    expect(consoleErrors).toEqual([]);
  });

  it('the Events page shows a new event within 2 s without reload', async () => {
    let navigations = 0;
    const connected = page.waitForResponse((r) => r.url().includes('/dashboard/events/stream'));
    await page.goto(`${url}/dashboard/events`);
    await connected;
    page.on('framenavigated', () => {
      navigations += 1;
    });
    const created = await api<{ id: string }>('POST', '/v3/customers', {
      cpf: '987.654.321-00',
      name: 'Live One',
    });
    // It arrives over the stream, however long that takes on a busy machine: no page load.
    await page
      .locator(
        `#events tr[data-event-type="customer.created"] a[href="/dashboard/customers/${created.body.id}"]`,
      )
      .waitFor({ timeout: WAIT_LIMIT_MS });
    expect(navigations).toBe(0);
    await page.locator('#events tr').first().locator('summary').click();
    await shot(page, 'events');
  });

  it('a scenario run shows its steps as they complete', async () => {
    await page.goto(`${url}/dashboard/scenarios`);
    await page.locator('[data-scenario="wait-for-signal"]').getByRole('button', { name: 'Run' }).click();
    await page.waitForURL(/\/dashboard\/scenarios\/runs\/run_/);
    const step = (n: number) => page.locator(`#steps li[data-step="${n}"]`);
    await expect(step(1).getAttribute('data-step-status')).resolves.toBe('passed');
    await expect(step(2).getAttribute('data-step-status')).resolves.toBe('running');
    let navigations = 0;
    page.on('framenavigated', () => {
      navigations += 1;
    });
    await api('POST', '/v3/customers', { cpf: '714.602.380-01', name: 'Signal', external_id: 'go-signal' });
    await page.locator('#steps li[data-step="3"][data-step-status="passed"]').waitFor({ timeout: 10_000 });
    await expect(step(2).getAttribute('data-step-status')).resolves.toBe('passed');
    await page.locator('#run-status[data-run-status="passed"]').waitFor({ timeout: 5000 });
    expect(navigations).toBe(0);
    await shot(page, 'scenario-run');
    await page.goto(`${url}/dashboard/scenarios`);
    await expect(page.locator('#runs').textContent()).resolves.toContain('wait-for-signal');
    await shot(page, 'scenarios');
  });

  it('small screens: the loan page stacks its tables and fits the width', async () => {
    const phone = await context.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto(`${url}/dashboard/loans/${loanId}`);
    const width = await phone.evaluate('document.documentElement.scrollWidth');
    expect(width).toBeLessThanOrEqual(390);
    await shot(phone, 'loan-phone');
    await phone.close();
  });
});
