import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { activeCustomer, advanceClock, createLoan, offersOf, simulate, TIER_CPF } from '../support/credit.js';
import { type CustomerBody, createCustomer, upload } from '../support/customers.js';
import { signIn } from '../support/dashboard-session.js';
import { createTestSandbox, type TestSandbox } from '../support/sandbox.js';

// Issue 28, item 6: the dashboard offers only the moves the API would take, and the Webhooks page
// can add an endpoint and rotate its secret.

const page = async (sb: TestSandbox, path: string, cookie: string) =>
  (await sb.app.request(path, { headers: { cookie } })).text();

const post = (sb: TestSandbox, path: string, cookie: string, fields: Record<string, string>) =>
  sb.app.request(path, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });

const buttons = (html: string) =>
  [...html.matchAll(/<button type="submit"[^>]*>\s*([^<]+?)\s*<\/button>/g)].map((m) => m[1]);

describe('customer page: KYC buttons only when the move is possible', () => {
  it('nothing submitted: no Approve KYC; Complete biometrics opens a session and approves the capture', async () => {
    const sb = createTestSandbox();
    const customer = await createCustomer(sb);
    const { cookie, csrf } = await signIn(sb);
    const before = buttons(await page(sb, `/dashboard/customers/${customer.id}`, cookie));
    expect(before).not.toContain('Approve KYC');
    expect(before).toContain('Complete biometrics');

    const done = await post(sb, `/dashboard/customers/${customer.id}/biometrics/complete`, cookie, {
      _csrf: csrf,
      outcome: 'approved',
    });
    expect(done.status).toBe(303);
    const after = await sb.json<CustomerBody>('GET', `/v3/customers/${customer.id}`);
    expect(after.body.kyc.find((item) => item.type === 'biometrics')?.status).not.toBe('pending');
    const html = await page(sb, `/dashboard/customers/${customer.id}`, cookie);
    expect(buttons(html)).not.toContain('Complete biometrics');
  });

  it('a submitted document: Approve KYC appears and approves it', async () => {
    const sb = createTestSandbox();
    const customer = await createCustomer(sb);
    expect((await upload(sb, customer.id, 'selfie')).status).toBe(201);
    const { cookie, csrf } = await signIn(sb);
    expect(buttons(await page(sb, `/dashboard/customers/${customer.id}`, cookie))).toContain('Approve KYC');
    expect(
      (await post(sb, `/dashboard/customers/${customer.id}/kyc/approve`, cookie, { _csrf: csrf })).status,
    ).toBe(303);
    const after = await sb.json<CustomerBody>('GET', `/v3/customers/${customer.id}`);
    expect(after.body.kyc.find((item) => item.type === 'selfie')?.status).toBe('approved');
    expect(buttons(await page(sb, `/dashboard/customers/${customer.id}`, cookie))).not.toContain(
      'Approve KYC',
    );
  });
});

describe('loan page', () => {
  it('a loan in error shows no "Use Sign" hint', async () => {
    const sb = createTestSandbox();
    const customer = await activeCustomer(sb, { cpf: TIER_CPF.standard });
    const offer = (await offersOf(sb, customer.id))[0] as { id: string; installments: number };
    const sim = await simulate(sb, offer.id, '1000.00', offer.installments);
    const loan = (await createLoan(sb, offer.id, sim.id)).id;
    await advanceClock(sb, { by: '3s' });
    const { cookie, csrf } = await signIn(sb);
    expect(await page(sb, `/dashboard/loans/${loan}`, cookie)).toContain('Use &quot;Sign&quot; above');
    await post(sb, `/dashboard/loans/${loan}/sign`, cookie, { _csrf: csrf });
    await post(sb, `/dashboard/loans/${loan}/fail`, cookie, { _csrf: csrf });
    const html = await page(sb, `/dashboard/loans/${loan}`, cookie);
    expect(html).toContain('data-state="error"');
    expect(html).not.toContain('Use &quot;Sign&quot;');
    expect(html).toContain('it never gets installments');
  });
});

describe('events and webhooks', () => {
  it('Redeliver appears only once an active endpoint exists', async () => {
    const sb = createTestSandbox();
    await sb.json('POST', '/v3/customers', { body: { cpf: '529.982.247-25' } });
    const { cookie } = await signIn(sb);
    const without = await page(sb, '/dashboard/events', cookie);
    expect(buttons(without)).not.toContain('Redeliver');
    expect(without).toContain('add one on Webhooks');
    await sb.json('POST', '/v3/webhooks/endpoints', { body: { url: 'http://127.0.0.1:9/hook' } });
    const withEndpoint = await page(sb, '/dashboard/events', cookie);
    expect(buttons(withEndpoint)).toContain('Redeliver');
    expect(withEndpoint).not.toContain('add one on Webhooks');
  });

  it('the Webhooks page adds an endpoint (URL, event patterns) and rotates its secret, each secret shown once', async () => {
    // Real random bytes: the default test source repeats one byte, so every secret would be equal.
    const sb = createTestSandbox({}, { randomBytes });
    const { cookie, csrf } = await signIn(sb);
    expect(await page(sb, '/dashboard/webhooks', cookie)).toContain('id="add-endpoint"');
    const added = await post(sb, '/dashboard/webhooks/endpoints', cookie, {
      _csrf: csrf,
      url: 'http://127.0.0.1:9/hook',
      events: 'customer.*, loan.active',
      description: 'from the dashboard',
    });
    expect(added.status).toBe(200);
    const addedHtml = await added.text();
    const secret = /data-secret[^>]*>(whsec_[^<]+)</.exec(addedHtml)?.[1];
    expect(secret).toBeDefined();
    const endpoints = await sb.json<{
      data: { id: string; url: string; events: string[]; description: string }[];
    }>('GET', '/v3/webhooks/endpoints');
    const endpoint = endpoints.body.data[0];
    expect(endpoint).toMatchObject({
      url: 'http://127.0.0.1:9/hook',
      events: ['customer.*', 'loan.active'],
      description: 'from the dashboard',
    });
    // The secret is on the answer page only: not in a cookie, not on the Webhooks page.
    expect(added.headers.get('set-cookie') ?? '').not.toContain('whsec_');
    const list = await page(sb, '/dashboard/webhooks', cookie);
    expect(list).not.toContain(secret as string);
    expect(buttons(list)).toContain('Rotate secret');

    const rotated = await post(sb, `/dashboard/webhooks/endpoints/${endpoint?.id}/rotate`, cookie, {
      _csrf: csrf,
    });
    expect(rotated.status).toBe(200);
    const newSecret = /data-secret[^>]*>(whsec_[^<]+)</.exec(await rotated.text())?.[1];
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(secret);
  });

  it('adding an endpoint needs the CSRF token, and a bad URL comes back as the API problem', async () => {
    const sb = createTestSandbox();
    const { cookie, csrf } = await signIn(sb);
    const forged = await post(sb, '/dashboard/webhooks/endpoints', cookie, { url: 'http://127.0.0.1:9/x' });
    expect(forged.status).toBe(403);
    const bad = await post(sb, '/dashboard/webhooks/endpoints', cookie, { _csrf: csrf, url: 'not a url' });
    expect(bad.status).toBe(303);
    const flash = (bad.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const html = await page(sb, '/dashboard/webhooks', `${cookie}; ${flash}`);
    expect(html).toMatch(/role="(alert|status)"[^>]*>[\s\S]*url/i);
    const endpoints = await sb.json<{ data: unknown[] }>('GET', '/v3/webhooks/endpoints');
    expect(endpoints.body.data).toEqual([]);
  });
});

describe('scenarios page', () => {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the text the page must not show
  it('renders descriptions for people: backticks as code, ${random.cpf} defaults in words', async () => {
    const sb = createTestSandbox();
    const { cookie } = await signIn(sb);
    const html = await page(sb, '/dashboard/scenarios', cookie);
    expect(html).toContain('placeholder="default: a random valid CPF"');
    expect(html).not.toContain('${random.');
    // installment-due-on-holiday's description names its captures in backticks.
    const card = /data-scenario="installment-due-on-holiday"[\s\S]*?<\/section>/.exec(html)?.[0] ?? '';
    expect(card).toContain('<code>customer</code>');
    expect(card).not.toContain('`');
  });
});
