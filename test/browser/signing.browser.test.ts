import { readFileSync } from 'node:fs';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.js';
import { type BrowserHarness, startBrowserHarness } from './harness.js';

const PNG = readFileSync(new URL('../../fixtures/sample.png', import.meta.url));

let harness: BrowserHarness;
let server: RunningServer;
let browser: BrowserContext;
const api = <T>(method: string, path: string, body?: unknown) => harness.api<T>(method, path, body);

/** A customer through KYC, its offer simulated and contracted; returns the loan waiting for signature. */
async function loanAwaitingSignature(cpf: string): Promise<{ id: string; signingUrl: string }> {
  const customer = await api<{ id: string }>('POST', '/v3/customers', { cpf, name: 'Maria da Silva' });
  expect(customer.status).toBe(201);
  const id = customer.body.id;
  for (const type of ['identity_card_front', 'identity_card_back', 'selfie']) {
    const form = new FormData();
    form.set('type', type);
    form.set('file', new File([new Uint8Array(PNG)], 'doc.png', { type: 'image/png' }));
    const res = await harness.fetch(`/v3/customers/${id}/documents`, { method: 'POST', body: form });
    expect(res.status).toBe(201);
  }
  expect((await api('POST', `/v3/customers/${id}/biometrics`)).status).toBe(200);
  expect(
    (await api('POST', `/v3/sandbox/customers/${id}/biometrics/complete`, { outcome: 'approved' })).status,
  ).toBe(200);
  expect((await api('POST', `/v3/sandbox/customers/${id}/kyc/approve`)).status).toBe(200);
  const offers = await api<{ data: { id: string; installments: number }[] }>(
    'GET',
    `/v3/customers/${id}/credit-offers`,
  );
  const offer = offers.body.data[0] as { id: string; installments: number };
  const sim = await api<{ id: string }>('POST', `/v3/credit-offers/${offer.id}/simulations`, {
    requested_amount: '10000.00',
    installment_count: offer.installments,
  });
  expect(sim.status).toBe(201);
  const loan = await api<{ id: string }>('POST', '/v3/loans', {
    credit_offer_id: offer.id,
    simulation_id: sim.body.id,
  });
  expect(loan.status).toBe(201);
  await api('POST', '/v3/sandbox/clock/advance', { by: '3s' });
  const awaiting = await api<{ status: string; signing_url: string }>('GET', `/v3/loans/${loan.body.id}`);
  expect(awaiting.body.status).toBe('awaiting_signatures');
  return { id: loan.body.id, signingUrl: awaiting.body.signing_url };
}

beforeAll(async () => {
  harness = await startBrowserHarness();
  ({ server, browser } = harness);
});

afterAll(async () => {
  await harness?.close();
});

describe('hosted contract page in a real browser', () => {
  it('opens the signing_url, clicks Sign, and the loan moves to signed', async () => {
    // 123.456.007-05 falls in the "standard" tier: 10,000.00 in 12 installments at 2 % a month.
    const { id, signingUrl } = await loanAwaitingSignature('123.456.007-05');
    expect(signingUrl.startsWith(`${server.url}/hosted/contracts/${id}/`)).toBe(true);
    const page = await browser.newPage();
    const opened = await page.goto(signingUrl);
    expect(opened?.status()).toBe(200);
    await expect(page.locator('h1').textContent()).resolves.toContain('Cédula de Crédito Bancário');
    await expect(page.locator('body').textContent()).resolves.toContain('R$ 10.000,00');
    await page.getByRole('button', { name: 'Sign' }).click();
    await page.waitForURL(`${signingUrl}?done=sign`);
    await expect(page.locator('#status').textContent()).resolves.toBe('signed');
    expect(await page.getByRole('button', { name: 'Sign' }).count()).toBe(0);
    const loan = await api<{ status: string; signing_url: string | null }>('GET', `/v3/loans/${id}`);
    expect(loan.body).toMatchObject({ status: 'signed', signing_url: null });
    await page.close();
  });

  it('Decline cancels the loan', async () => {
    const { id, signingUrl } = await loanAwaitingSignature('123.456.009-77'); // standard tier too
    const page = await browser.newPage();
    await page.goto(signingUrl);
    await page.getByRole('button', { name: 'Decline' }).click();
    await page.waitForURL(`${signingUrl}?done=decline`);
    await expect(page.locator('#status').textContent()).resolves.toBe('cancelled');
    expect((await api<{ status: string }>('GET', `/v3/loans/${id}`)).body.status).toBe('cancelled');
    await page.close();
  });
});
