import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/default-partner.js';
import { type RunningServer, startServer } from '../../src/server.js';

/** Debian's Chromium (`apt-get install chromium`); playwright-core never downloads a browser. */
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

interface Customer {
  id: string;
  status: string;
  kyc: { type: string; status: string; message: string | null }[];
}

let server: RunningServer;
let browser: BrowserContext;
let userDataDir: string;
let token: string;

async function api<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

async function biometricsStatus(id: string): Promise<string | undefined> {
  const customer = await api<Customer>('GET', `/v3/customers/${id}`);
  return customer.body.kyc.find((item) => item.type === 'biometrics')?.status;
}

async function newCustomer(cpf: string): Promise<{ id: string; sessionUrl: string }> {
  const created = await api<Customer>('POST', '/v3/customers', { cpf, name: 'Maria da Silva' });
  expect(created.status).toBe(201);
  const session = await api<{ session_url: string }>('POST', `/v3/customers/${created.body.id}/biometrics`);
  expect(session.status).toBe(200);
  expect(session.body.session_url.startsWith(`${server.url}/hosted/biometrics/`)).toBe(true);
  return { id: created.body.id, sessionUrl: session.body.session_url };
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install Debian's Chromium with "apt-get install -y chromium".`);
  }
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    clockMode: 'frozen',
    rateLimit: 0,
    webhookHttpHosts: [],
    credential: { clientId: DEFAULT_CLIENT_ID, clientSecret: DEFAULT_CLIENT_SECRET },
    log: { info: () => {}, error: (message, error) => console.error(message, error) },
  });
  const res = await fetch(`${server.url}/v3/auth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${DEFAULT_CLIENT_ID}:${DEFAULT_CLIENT_SECRET}`).toString('base64')}`,
    },
  });
  token = ((await res.json()) as { access_token: string }).access_token;
  userDataDir = mkdtempSync(join(tmpdir(), 'credit-sandbox-chromium-'));
  browser = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    javaScriptEnabled: false, // the hosted page must work without any script
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
});

describe('hosted biometrics page in a real browser', () => {
  it('opens the session_url, clicks Approve, and the KYC item moves to approved', async () => {
    const { id, sessionUrl } = await newCustomer('529.982.247-25');
    expect(await biometricsStatus(id)).toBe('pending');
    const page = await browser.newPage();
    const opened = await page.goto(sessionUrl);
    expect(opened?.status()).toBe(200);
    await expect(page.locator('h1').textContent()).resolves.toBe('Biometric capture');
    await expect(page.locator('body').textContent()).resolves.toContain('Maria da Silva');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(sessionUrl);
    await expect(page.locator('#result').textContent()).resolves.toBe('Capture approved');
    expect(await biometricsStatus(id)).toBe('approved');
    await page.close();
  });

  it('Fail sends the item to pending_resubmission; an expired session shows as expired', async () => {
    const { id, sessionUrl } = await newCustomer('111.444.777-35');
    const page = await browser.newPage();
    await page.goto(sessionUrl);
    await page.getByRole('button', { name: 'Fail' }).click();
    await expect(page.locator('#result').textContent()).resolves.toBe('Capture failed');
    expect(await biometricsStatus(id)).toBe('pending_resubmission');

    const retry = await api<{ session_url: string }>('POST', `/v3/customers/${id}/biometrics`);
    await api('POST', '/v3/sandbox/clock/advance', { by: '15m' });
    const expired = await page.goto(retry.body.session_url);
    expect(expired?.status()).toBe(410);
    await expect(page.locator('#result').textContent()).resolves.toBe('Session expired');
    expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    expect(await biometricsStatus(id)).toBe('pending_resubmission');
    await page.close();
  });
});
