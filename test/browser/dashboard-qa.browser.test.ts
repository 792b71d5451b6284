import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import { type BrowserHarness, startBrowserHarness } from './harness.js';

// The QA additions in a real browser, JavaScript off (every form posts and redirects): overdue at a
// glance, search, the Faults form and the Snapshots export / import / delete.
const SHOTS = new URL('../../docs/dashboard/', import.meta.url);
let harness: BrowserHarness;
let url: string;
let page: Page;
let loan: { id: string; ccb_number: string };
let customer: { id: string; name: string };

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: new URL(`${name}.png`, SHOTS).pathname, fullPage: true });
}

beforeAll(async () => {
  harness = await startBrowserHarness();
  url = harness.server.url;
  const run = await harness.api<{
    status: string;
    captured: { loan: typeof loan; customer: typeof customer };
  }>('POST', '/v3/sandbox/scenarios/overdue-installment/runs', { params: { days: 30 } });
  expect(run.body.status).toBe('passed');
  ({ loan, customer } = run.body.captured);
  page = await harness.browser.newPage();
  await page.goto(`${url}/dashboard`);
  await page.getByLabel('Client ID').fill(DEFAULT_CLIENT_ID);
  await page.getByLabel('Client secret').fill(DEFAULT_CLIENT_SECRET);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForLoadState();
});

afterAll(async () => {
  await harness?.close();
});

describe('dashboard for QA (JavaScript off)', () => {
  it('shows overdue installments on the overview and in the loans list, with names and contract numbers', async () => {
    await page.goto(`${url}/dashboard`);
    const installments = page.getByRole('region', { name: 'Installments' });
    await expect(installments.locator('[data-count="overdue"] strong').textContent()).resolves.toBe('1');
    await page.goto(`${url}/dashboard/loans`);
    const row = page.locator(`tr[data-loan="${loan.id}"]`);
    await expect(row.locator('[data-overdue]').textContent()).resolves.toBe('1 overdue');
    await expect(row.getByRole('link', { name: customer.name }).count()).resolves.toBe(1);
    await expect(row.textContent()).resolves.toContain(`contract ${loan.ccb_number}`);
    await shot('loans-overdue');
  });

  it('the search box goes from an id to its page and from a name to the customer', async () => {
    await page.goto(`${url}/dashboard`);
    await page.getByLabel('Search a name or an id').fill(loan.id);
    await page.getByLabel('Search a name or an id').press('Enter');
    await page.waitForLoadState();
    expect(new URL(page.url()).pathname).toBe(`/dashboard/loans/${loan.id}`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(`Loan ${loan.id}`);
    await page.getByLabel('Search a name or an id').fill(customer.name.split(' ')[0]?.toUpperCase() ?? '');
    await page.getByLabel('Search a name or an id').press('Enter');
    await page.waitForLoadState();
    await page.getByRole('link', { name: customer.name }).click();
    expect(new URL(page.url()).pathname).toBe(`/dashboard/customers/${customer.id}`);
  });

  it('the Faults page adds a rule from its form, then deletes it', async () => {
    await page.goto(`${url}/dashboard/faults`);
    await page.locator('select[name="operation"]').selectOption('POST /customers');
    await page.locator('select[name="action"]').selectOption('lost-502');
    await page.locator('input[name="times"]').fill('2');
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.waitForLoadState();
    await expect(page.getByRole('status').textContent()).resolves.toMatch(
      /Fault rule flt_\w+ added: POST \/customers\./,
    );
    const rules = await harness.api<{ data: { match: unknown; action: unknown; times_left: number }[] }>(
      'GET',
      '/v3/sandbox/faults',
    );
    expect(rules.body.data).toEqual([
      expect.objectContaining({
        match: { method: 'POST', path: '/customers' },
        action: { status: 502, after_processing: true },
        times_left: 2,
      }),
    ]);
    await shot('faults');
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.waitForLoadState();
    expect((await harness.api<{ data: unknown[] }>('GET', '/v3/sandbox/faults')).body.data).toEqual([]);
  });

  it('the Snapshots page saves, exports a .snapshot.json.gz, imports it under another name and deletes', async () => {
    await page.goto(`${url}/dashboard/snapshots`);
    await page.getByRole('textbox', { name: 'Name' }).first().fill('overdue');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForLoadState();
    const row = page.locator('tr[data-snapshot="overdue"]');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('link', { name: 'Export' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('overdue.snapshot.json.gz');
    const file = readFileSync((await download.path()) as string);
    expect([file[0], file[1]]).toEqual([0x1f, 0x8b]);

    const importForm = page.getByRole('region', { name: 'Import a snapshot' });
    await importForm.getByLabel('Exported file').setInputFiles({
      name: 'overdue.snapshot.json.gz',
      mimeType: 'application/gzip',
      buffer: file,
    });
    await importForm.getByRole('textbox', { name: 'Name' }).fill('copy');
    await importForm.getByRole('button', { name: 'Import and restore' }).click();
    await page.waitForLoadState();
    await expect(page.getByRole('status').textContent()).resolves.toBe(
      'Snapshot copy imported and restored.',
    );
    await shot('snapshots');

    await page.locator('tr[data-snapshot="overdue"]').getByRole('button', { name: 'Delete' }).click();
    await page.waitForLoadState();
    const names = await harness.api<{ data: { name: string }[] }>('GET', '/v3/sandbox/snapshots');
    expect(names.body.data.map((s) => s.name)).toEqual(['copy']);
  });
});
