import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import { type BrowserHarness, startBrowserHarness } from './harness.js';

// Issue 28, item 6: an expanded JSON payload must not push the Redeliver column off-screen at
// 1280 px (the common laptop width).
let harness: BrowserHarness;

beforeAll(async () => {
  harness = await startBrowserHarness();
});
afterAll(async () => {
  await harness?.close();
});

describe('Events page layout at 1280 px', () => {
  it('keeps Redeliver on-screen with a payload expanded', async () => {
    await harness.api('POST', '/v3/webhooks/endpoints', { url: 'http://127.0.0.1:9/hook' });
    // Long lines in the payload: an external_id of 250 characters without a break.
    const created = await harness.api('POST', '/v3/customers', {
      cpf: '529.982.247-25',
      name: 'Ana Long',
      external_id: 'x'.repeat(250),
    });
    expect(created.status).toBe(201);
    const page = await harness.browser.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${harness.server.url}/dashboard`);
    await page.getByLabel('Client ID').fill(DEFAULT_CLIENT_ID);
    await page.getByLabel('Client secret').fill(DEFAULT_CLIENT_SECRET);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForLoadState();
    await page.goto(`${harness.server.url}/dashboard/events`);
    const row = page.locator('#events tr').first();
    await row.locator('summary').click();
    await expect(row.locator('pre').isVisible()).resolves.toBe(true);
    const button = row.getByRole('button', { name: 'Redeliver' });
    const box = await button.boundingBox();
    expect(box).not.toBeNull();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(1280);
    // Nothing scrolls sideways: the page is no wider than the window.
    // A string: the function runs in the page, where `document` exists (not in Node's types).
    const scrollWidth = await page.evaluate<number>('document.documentElement.scrollWidth');
    expect(scrollWidth).toBeLessThanOrEqual(1280);
    await page.close();
  });
});
