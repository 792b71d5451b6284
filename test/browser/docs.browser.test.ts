import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import { type RunningServer, startServer } from '../../src/server.js';

// Swagger UI needs JavaScript, unlike the hosted pages: its own Chromium context with scripts on.
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let server: RunningServer;
let dir: string;
beforeAll(async () => {
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    clockMode: 'frozen',
    rateLimit: 0,
    webhookHttpHosts: [],
    startTimeMs: Date.parse('2026-03-02T12:00:00.000Z'),
    credential: { clientId: DEFAULT_CLIENT_ID, clientSecret: DEFAULT_CLIENT_SECRET },
    log: { info: () => {}, error: (message, error) => console.error(message, error) },
  });
  dir = mkdtempSync(join(tmpdir(), 'credit-sandbox-docs-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('/docs/ (Swagger UI)', () => {
  it('Authorize takes the client id and secret, and Try it out reaches <server>/v3 paths', async () => {
    const browser = await chromium.launchPersistentContext(dir, {
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: ARGS,
    });
    try {
      const page = await browser.newPage();
      await page.goto(`${server.url}/docs/`);
      await page.locator('.btn.authorize').first().click();
      const oauth = page.locator('.auth-container').filter({ hasText: 'clientCredentials' });
      await oauth.locator('input#client_id_clientCredentials').fill(DEFAULT_CLIENT_ID);
      await oauth.locator('input#client_secret_clientCredentials').fill(DEFAULT_CLIENT_SECRET);
      await oauth.getByRole('button', { name: 'Apply given OAuth2 credentials' }).click();
      // Swagger UI fetched a token from the token URL: the form now offers to log out.
      await oauth
        .getByRole('button', { name: 'Remove authorization' })
        .or(oauth.getByText('Logout'))
        .first()
        .waitFor();
      await page.locator('.dialog-ux .close-modal').first().click();

      const operation = page.locator('.opblock').filter({
        has: page.locator('.opblock-summary-path[data-path="/sandbox/clock"]'),
      });
      await operation.first().locator('.opblock-summary').first().click();
      await operation.first().getByRole('button', { name: 'Try it out' }).click();
      await operation.first().getByRole('button', { name: 'Execute' }).click();
      const status = operation
        .first()
        .locator('.live-responses-table tr.response .response-col_status')
        .first();
      await status.waitFor();
      expect((await status.textContent())?.trim()).toBe('200');
      const url = await operation.first().locator('.request-url pre').first().textContent();
      expect(url).toBe(`${server.deps.config.publicUrl}/v3/sandbox/clock`);
      const body = await operation
        .first()
        .locator('.live-responses-table tr.response .response-col_description pre')
        .first()
        .textContent();
      expect(body).toContain('2026-03-02T12:00:00.000Z');
    } finally {
      await browser.close();
    }
  });
});
