import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CLIENT_ID,
  DEFAULT_CLIENT_SECRET,
  DEFAULT_PARTNER_ID,
} from '../../src/domain/default-partner.js';
import { scenarioRunLog } from '../../src/engine/scenarios/run-log.js';
import {
  activeCustomer,
  advanceClock,
  createLoan,
  getLoan,
  offersOf,
  simulate,
  TIER_CPF,
} from '../support/credit.js';
import { type CustomerBody, createCustomer, kycStatuses, upload } from '../support/customers.js';
import { createTestSandbox, type TestSandbox } from '../support/sandbox.js';

/** Signs in through the form as a browser would; returns the session cookie and the page's CSRF token. */
async function signIn(
  sb: TestSandbox,
  clientId = DEFAULT_CLIENT_ID,
  secret = DEFAULT_CLIENT_SECRET,
): Promise<{ res: Response; cookie: string; csrf: string }> {
  const form = await sb.app.request('/dashboard/sign-in');
  const nonce = (form.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
  const res = await sb.app.request('/dashboard/sign-in', {
    method: 'POST',
    headers: { cookie: nonce, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: token, client_id: clientId, client_secret: secret }).toString(),
  });
  const cookie = (
    res.headers.getSetCookie().find((c) => c.startsWith('credit_sandbox_session=')) ?? ''
  ).split(';')[0] as string;
  let csrf = '';
  if (cookie) {
    const home = await sb.app.request('/dashboard', { headers: { cookie } });
    csrf = /name="_csrf" value="([^"]+)"/.exec(await home.text())?.[1] ?? '';
  }
  return { res, cookie, csrf };
}

function post(sb: TestSandbox, path: string, cookie: string, fields: Record<string, string>) {
  return sb.app.request(path, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}

describe('dashboard session', () => {
  it('redirects to sign-in without a session, for pages and actions alike', async () => {
    const sb = createTestSandbox();
    for (const path of ['/dashboard', '/dashboard/customers', '/dashboard/loans/ln_x']) {
      const res = await sb.app.request(path);
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/dashboard/sign-in');
    }
    const res = await post(sb, '/dashboard/clock/freeze', '', {});
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/dashboard/sign-in');
  });

  it('signs in with a cookie that is HttpOnly, SameSite=Strict, scoped to /dashboard and holds no secret', async () => {
    const sb = createTestSandbox();
    const { res, cookie } = await signIn(sb);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/dashboard');
    const header = res.headers.getSetCookie().find((c) => c.startsWith('credit_sandbox_session=')) ?? '';
    expect(header).toContain('HttpOnly');
    expect(header).toContain('SameSite=Strict');
    expect(header).toContain('Path=/dashboard');
    expect(cookie).not.toContain(DEFAULT_CLIENT_SECRET);
    const payload = Buffer.from(cookie.split('=')[1]?.split('.')[0] ?? '', 'base64url').toString();
    expect(payload).not.toContain('svc_cs_');
    expect(payload).not.toContain('svc_at_');
  });

  it('a wrong secret answers 401 with the error and sets no session', async () => {
    const sb = createTestSandbox();
    await sb.json('POST', '/v3/customers', { body: { cpf: '529.982.247-25', name: 'Hidden Person' } });
    const { res, cookie } = await signIn(sb, DEFAULT_CLIENT_ID, 'svc_cs_test_wrong');
    expect(res.status).toBe(401);
    expect(cookie).toBe('');
    const html = await res.text();
    expect(html).toContain('Sign-in failed: Unknown client_id or wrong client_secret.');
    expect(html).not.toContain('Hidden Person');
  });

  it('refuses a sign-in form without its token', async () => {
    const sb = createTestSandbox();
    const res = await sb.app.request('/dashboard/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: DEFAULT_CLIENT_ID,
        client_secret: DEFAULT_CLIENT_SECRET,
      }).toString(),
    });
    expect(res.status).toBe(401);
    expect(res.headers.getSetCookie().some((c) => c.startsWith('credit_sandbox_session='))).toBe(false);
  });

  it('refuses a form without the CSRF token (403) and leaves the clock alone', async () => {
    const sb = createTestSandbox();
    const { cookie, csrf } = await signIn(sb);
    const before = await sb.json<{ now: string }>('GET', '/v3/sandbox/clock');
    expect((await post(sb, '/dashboard/clock/advance', cookie, { by: '1d' })).status).toBe(403);
    expect((await post(sb, '/dashboard/clock/advance', cookie, { by: '1d', _csrf: 'forged' })).status).toBe(
      403,
    );
    expect((await sb.json<{ now: string }>('GET', '/v3/sandbox/clock')).body.now).toBe(before.body.now);
    const ok = await post(sb, '/dashboard/clock/advance', cookie, { by: '1d', _csrf: csrf });
    expect(ok.status).toBe(303);
    expect(Date.parse((await sb.json<{ now: string }>('GET', '/v3/sandbox/clock')).body.now)).toBe(
      Date.parse(before.body.now) + 86_400_000,
    );
  });

  it('outlives a 35-day clock jump (API tokens last one partner-clock hour; the session does not)', async () => {
    const sb = createTestSandbox();
    const { cookie, csrf } = await signIn(sb);
    const jump = await post(sb, '/dashboard/clock/advance', cookie, { by: '35d', _csrf: csrf });
    expect(jump.status).toBe(303);
    const flash = (jump.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const home = await sb.app.request('/dashboard', { headers: { cookie: `${cookie}; ${flash}` } });
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('Clock advanced by 35d.');
    const again = await post(sb, '/dashboard/clock/freeze', cookie, { _csrf: csrf });
    expect(again.status).toBe(303);
  });

  it('an API problem from an action becomes the flash message', async () => {
    const sb = createTestSandbox();
    const { cookie, csrf } = await signIn(sb);
    const res = await post(sb, '/dashboard/clock/advance', cookie, { by: 'soon', _csrf: csrf });
    const flash = (res.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const home = await (
      await sb.app.request('/dashboard', { headers: { cookie: `${cookie}; ${flash}` } })
    ).text();
    expect(home).toMatch(
      /<div class="flash error" role="alert">Request validation failed: Invalid request: by[^<]*<\/div>/,
    );
  });

  it('ends the session when its credential is revoked', async () => {
    const sb = createTestSandbox();
    const created = await sb.json<{ client_id: string; client_secret: string }>(
      'POST',
      '/v3/auth/credentials',
      {
        body: { name: 'qa' },
      },
    );
    const { cookie } = await signIn(sb, created.body.client_id, created.body.client_secret);
    expect((await sb.app.request('/dashboard', { headers: { cookie } })).status).toBe(200);
    await sb.json('DELETE', `/v3/auth/credentials/${created.body.client_id}`);
    const res = await sb.app.request('/dashboard', { headers: { cookie } });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/dashboard/sign-in');
  });

  it('signs out', async () => {
    const sb = createTestSandbox();
    const { cookie, csrf } = await signIn(sb);
    const res = await post(sb, '/dashboard/sign-out', cookie, { _csrf: csrf });
    expect(res.status).toBe(303);
    expect(res.headers.getSetCookie().some((c) => /^credit_sandbox_session=;/.test(c))).toBe(true);
  });
});

describe('dashboard pages', () => {
  it("shows only the signed-in partner's data; another partner's ids answer 404", async () => {
    const sb = createTestSandbox();
    const other = await sb.json<{ client_id: string; client_secret: string }>(
      'POST',
      '/v3/sandbox/partners',
      {
        body: { name: 'other' },
      },
    );
    const otherToken = await sb.token(other.body.client_id, other.body.client_secret);
    const theirs = await sb.json<{ id: string }>('POST', '/v3/customers', {
      token: otherToken,
      body: { cpf: '390.533.447-05', name: 'Their Customer' },
    });
    const mine = await sb.json<{ id: string }>('POST', '/v3/customers', {
      body: { cpf: '529.982.247-25', name: 'My Customer' },
    });
    const { cookie } = await signIn(sb);
    const list = await (await sb.app.request('/dashboard/customers', { headers: { cookie } })).text();
    expect(list).toContain('My Customer');
    expect(list).not.toContain('Their Customer');
    const page = await sb.app.request(`/dashboard/customers/${theirs.body.id}`, { headers: { cookie } });
    expect(page.status).toBe(404);
    expect(await page.text()).not.toContain('Their Customer');
    expect(
      (await sb.app.request(`/dashboard/customers/${mine.body.id}`, { headers: { cookie } })).status,
    ).toBe(200);
    const overview = await (await sb.app.request('/dashboard', { headers: { cookie } })).text();
    expect(overview).toMatch(/data-count="pending_kyc"[\s\S]*?<strong>1<\/strong>/);
  });

  it('serves every page with security headers, and htmx from its npm package', async () => {
    const sb = createTestSandbox();
    const { cookie } = await signIn(sb);
    for (const path of [
      '/dashboard',
      '/dashboard/customers',
      '/dashboard/loans',
      '/dashboard/events',
      '/dashboard/webhooks',
      '/dashboard/scenarios',
    ]) {
      const res = await sb.app.request(path, { headers: { cookie } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
    const zipped = await sb.app.request('/dashboard', { headers: { cookie, 'accept-encoding': 'gzip' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    const htmx = await sb.app.request('/dashboard/assets/htmx.min.js');
    expect(htmx.status).toBe(200);
    expect(await htmx.text()).toContain('htmx');
    expect((await sb.app.request('/dashboard/assets/other.js')).status).toBe(404);
  });

  it('Reject and Request correction move the KYC items through the control API', async () => {
    const sb = createTestSandbox();
    const customer = await createCustomer(sb);
    expect((await upload(sb, customer.id, 'selfie')).status).toBe(201);
    const { cookie, csrf } = await signIn(sb);
    const page = await (
      await sb.app.request(`/dashboard/customers/${customer.id}`, { headers: { cookie } })
    ).text();
    expect(page).toMatch(/data-kyc="selfie"[\s\S]*?Reject/);
    const rejected = await post(sb, `/dashboard/customers/${customer.id}/kyc/reject`, cookie, {
      _csrf: csrf,
      type: 'selfie',
      message: 'blurry',
    });
    expect(rejected.status).toBe(303);
    const corrected = await post(sb, `/dashboard/customers/${customer.id}/kyc/correction`, cookie, {
      _csrf: csrf,
      type: 'name',
      message: 'use the full name',
    });
    expect(corrected.status).toBe(303);
    const after = await sb.json<CustomerBody>('GET', `/v3/customers/${customer.id}`);
    expect(kycStatuses(after.body)).toMatchObject({
      selfie: 'pending_resubmission',
      name: 'pending_correction',
    });
    expect(after.body.kyc.find((i) => i.type === 'selfie')?.message).toBe('blurry');
  });

  it('the loan buttons appear only where the move is possible, and move the loan', async () => {
    const sb = createTestSandbox();
    const customer = await activeCustomer(sb, { cpf: TIER_CPF.standard });
    const offer = (await offersOf(sb, customer.id))[0] as { id: string; installments: number };
    const loanOf = async () => {
      const sim = await simulate(sb, offer.id, '1000.00', offer.installments);
      return (await createLoan(sb, offer.id, sim.id)).id;
    };
    const first = await loanOf();
    await advanceClock(sb, { by: '3s' });
    const { cookie, csrf } = await signIn(sb);
    const buttons = async (id: string) =>
      [
        ...(await (await sb.app.request(`/dashboard/loans/${id}`, { headers: { cookie } })).text()).matchAll(
          /<button type="submit"[^>]*>([^<]+)<\/button>/g,
        ),
      ]
        .map((m) => m[1])
        .filter((label) => label !== 'Sign out');
    expect(await buttons(first)).toEqual(['Sign', 'Decline', 'Cancel']);
    expect((await post(sb, `/dashboard/loans/${first}/sign`, cookie, { _csrf: csrf })).status).toBe(303);
    expect(await buttons(first)).toEqual(['Fail disbursement', 'Cancel']);
    expect((await post(sb, `/dashboard/loans/${first}/fail`, cookie, { _csrf: csrf })).status).toBe(303);
    expect(await getLoan(sb, first)).toMatchObject({ status: 'error', error: { code: expect.any(String) } });
    expect(await buttons(first)).toEqual([]);
    const page = await (await sb.app.request(`/dashboard/loans/${first}`, { headers: { cookie } })).text();
    expect(page).toContain('class="bad" data-state="error"');
  });

  it('Redeliver sends a logged event again through the API', async () => {
    const sb = createTestSandbox();
    await sb.json('POST', '/v3/webhooks/endpoints', { body: { url: 'http://127.0.0.1:9/hook' } });
    await sb.json('POST', '/v3/customers', { body: { cpf: '529.982.247-25' } });
    const events = await sb.json<{ data: { id: string }[] }>('GET', '/v3/sandbox/events');
    const eventId = events.body.data[0]?.id as string;
    const { cookie, csrf } = await signIn(sb);
    const res = await post(sb, `/dashboard/events/${eventId}/redeliver`, cookie, { _csrf: csrf });
    expect(res.status).toBe(303);
    const flash = (res.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const page = await (
      await sb.app.request('/dashboard/events', { headers: { cookie: `${cookie}; ${flash}` } })
    ).text();
    expect(page).toContain(`${eventId} redelivered to 1 endpoint.`);
    const deliveries = await sb.json<{ data: { trigger: string }[] }>(
      'GET',
      `/v3/sandbox/deliveries?event_id=${eventId}`,
    );
    expect(deliveries.body.data.map((d) => d.trigger).sort()).toEqual(['event', 'redeliver']);
  });

  it('Run starts a scenario and redirects at once to its page, which shows every step', async () => {
    const sb = createTestSandbox();
    const { cookie, csrf } = await signIn(sb);
    const res = await post(sb, '/dashboard/scenarios/active-customer/run', cookie, {
      _csrf: csrf,
      'param.name': 'Joana Dashboard',
    });
    expect(res.status).toBe(303);
    const location = res.headers.get('location') ?? '';
    expect(location).toMatch(/^\/dashboard\/scenarios\/runs\/run_[0-9a-f]{32}$/);
    const runId = location.split('/').at(-1) as string;
    const log = scenarioRunLog(sb.deps);
    // The run goes on after the redirect (in-process, on a frozen clock): let it finish.
    for (let k = 0; k < 500 && log.get(DEFAULT_PARTNER_ID, runId)?.status === 'running'; k++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    const page = await (await sb.app.request(location, { headers: { cookie } })).text();
    expect(page).toContain('data-run-status="passed"');
    expect(page).toContain('register the customer');
    expect((page.match(/data-step-status="passed"/g) ?? []).length).toBe(8);
    expect((await sb.app.request(`${location}/stream`, { headers: { cookie } })).status).toBe(204);
    const customers = await sb.json<{ data: { name: string }[] }>('GET', '/v3/customers');
    expect(customers.body.data.map((c) => c.name)).toContain('Joana Dashboard');
  });

  it('an unknown scenario answers the API problem as the flash message', async () => {
    const sb = createTestSandbox();
    const { cookie, csrf } = await signIn(sb);
    const res = await post(sb, '/dashboard/scenarios/nope/run', cookie, { _csrf: csrf });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/dashboard/scenarios');
    const flash = (res.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const page = await (
      await sb.app.request('/dashboard/scenarios', { headers: { cookie: `${cookie}; ${flash}` } })
    ).text();
    expect(page).toContain('Unknown scenario &quot;nope&quot;');
  });

  it("the request inspector keeps the dashboard's actions, not its page reads", async () => {
    const sb = createTestSandbox();
    const { cookie, csrf } = await signIn(sb);
    for (const path of ['/dashboard', '/dashboard/customers', '/dashboard/events', '/dashboard/requests']) {
      expect((await sb.app.request(path, { headers: { cookie } })).status).toBe(200);
    }
    await post(sb, '/dashboard/clock/advance', cookie, { by: '2h', _csrf: csrf });
    const log = await sb.json<{ data: { method: string; path: string; request_body: unknown }[] }>(
      'GET',
      '/v3/sandbox/requests?path=/v3/sandbox/clock',
    );
    expect(log.body.data.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v3/sandbox/clock/advance']);
    expect(log.body.data[0]?.request_body).toEqual({ by: '2h' });
    const reads = await sb.json<{ data: unknown[] }>('GET', '/v3/sandbox/requests?path=/v3/customers');
    expect(reads.body.data).toEqual([]);
    const page = await (await sb.app.request('/dashboard/requests', { headers: { cookie } })).text();
    expect(page).toContain('POST /v3/sandbox/clock/advance');
  });

  it('the Webhooks page shows chaos settings and what chaos did to each delivery', async () => {
    const sb = createTestSandbox();
    const endpoint = await sb.json<{ id: string }>('POST', '/v3/webhooks/endpoints', {
      body: { url: 'http://127.0.0.1:9/hook' },
    });
    const set = await sb.json('PUT', `/v3/sandbox/webhooks/endpoints/${endpoint.body.id}/chaos`, {
      body: { max_delay: '30s', reorder: true },
    });
    expect(set.status).toBe(200);
    await sb.json('POST', '/v3/customers', { body: { cpf: '529.982.247-25' } });
    const deliveries = await sb.json<{ data: { chaos: { act: string }[] }[] }>(
      'GET',
      '/v3/sandbox/deliveries',
    );
    expect(deliveries.body.data[0]?.chaos.map((a) => a.act)).toEqual(['delayed']);
    const { cookie } = await signIn(sb);
    const page = await (await sb.app.request('/dashboard/webhooks', { headers: { cookie } })).text();
    expect(page).toContain('delay up to 30s · reorder');
    expect(page).toMatch(/chaos delayed the first attempt by \d+(\.\d+)? s/);
  });

  it('empty lists say what to do next', async () => {
    const sb = createTestSandbox();
    const { cookie } = await signIn(sb);
    const customers = await (await sb.app.request('/dashboard/customers', { headers: { cookie } })).text();
    expect(customers).toContain('No customers yet.');
    expect(customers).toContain('POST /v3/customers');
    const loans = await (await sb.app.request('/dashboard/loans', { headers: { cookie } })).text();
    expect(loans).toContain('No loans yet.');
  });
});
