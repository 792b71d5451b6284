import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.js';
import { type BrowserHarness, startBrowserHarness } from './harness.js';

interface Customer {
  id: string;
  status: string;
  kyc: { type: string; status: string; message: string | null }[];
}

let harness: BrowserHarness;
let server: RunningServer;
let browser: BrowserContext;
const api = <T>(method: string, path: string, body?: unknown) => harness.api<T>(method, path, body);

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
  harness = await startBrowserHarness();
  ({ server, browser } = harness);
});

afterAll(async () => {
  await harness?.close();
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
