import { describe, expect, it } from 'vitest';
import {
  advance,
  CPF,
  type CustomerBody,
  createCustomer,
  customerEvents,
  kycStatuses,
  submitAllKyc,
} from '../support/customers.js';
import { createTestSandbox, newPartnerToken, type TestSandbox } from '../support/sandbox.js';

type Session = { session_url: string; expires_at: string };
const FAILED =
  'The biometric capture failed (no live face was recognised). Start a new session and try again in good light.';

async function startSession(sandbox: TestSandbox, id: string): Promise<Session> {
  const res = await sandbox.json<Session>('POST', `/v3/customers/${id}/biometrics`);
  expect(res.status).toBe(200);
  return res.body;
}

/** The hosted page's path (app.request takes paths; the URL's host is the configured public URL). */
function hostedPath(session: Session): string {
  const url = new URL(session.session_url);
  expect(url.origin).toBe('http://sandbox.test');
  return url.pathname;
}

/** Submits the hosted page's form as a browser would (no bearer token). */
async function clickButton(sandbox: TestSandbox, path: string, outcome: string): Promise<Response> {
  return sandbox.app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ outcome }).toString(),
  });
}

async function customer(sandbox: TestSandbox, id: string): Promise<CustomerBody> {
  return (await sandbox.json<CustomerBody>('GET', `/v3/customers/${id}`)).body;
}

describe('biometrics', () => {
  it('starts a session: 200, absolute session_url outside /v3, expires 15 min later', async () => {
    const sandbox = createTestSandbox();
    const { id } = await createCustomer(sandbox);
    const res = await sandbox.json<Session>('POST', `/v3/customers/${id}/biometrics`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      session_url: expect.stringMatching(/^http:\/\/sandbox\.test\/hosted\/biometrics\/[A-Za-z0-9_-]{40,}$/),
      expires_at: '2026-03-02T12:15:00.000Z',
    });
    const second = await startSession(sandbox, id);
    expect(second.session_url).not.toBe(res.body.session_url);
    const replay = await sandbox.json<Session>('POST', `/v3/customers/${id}/biometrics`, {
      headers: { 'idempotency-key': 'bio-1' },
    });
    const replayed = await sandbox.json<Session>('POST', `/v3/customers/${id}/biometrics`, {
      headers: { 'idempotency-key': 'bio-1' },
    });
    expect(replayed.body).toEqual(replay.body);
  });

  it('hosted page: plain HTML with Approve / Fail forms; Approve moves the item to approved', async () => {
    const sandbox = createTestSandbox();
    const { id } = await createCustomer(sandbox);
    const path = hostedPath(await startSession(sandbox, id));

    const page = await sandbox.app.request(path);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const html = await page.text();
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('Maria da Silva');
    expect(html).toMatch(/<form method="post">/);
    expect(html).toMatch(/<button type="submit" name="outcome" value="approved"[^>]*>Approve<\/button>/);
    expect(html).toMatch(/<button type="submit" name="outcome" value="rejected"[^>]*>Fail<\/button>/);

    const click = await clickButton(sandbox, path, 'approved');
    expect(click.status).toBe(303);
    expect(click.headers.get('location')).toBe(path);
    const result = await sandbox.app.request(path);
    expect(result.status).toBe(200);
    const shown = await result.text();
    expect(shown).toContain('Capture approved');
    expect(shown).not.toContain('<form');

    const after = await customer(sandbox, id);
    expect(after.kyc.find((i) => i.type === 'biometrics')).toEqual({
      kind: 'document',
      type: 'biometrics',
      description:
        'Facial biometrics (liveness capture): not uploaded; start a capture session with POST /v3/customers/{id}/biometrics',
      status: 'approved',
      message: null,
      uploaded_at: '2026-03-02T12:00:00.000Z',
    });
    const events = await customerEvents(sandbox);
    expect(events.map((e) => e.type)).toEqual(['customer.created', 'customer.kyc_updated']);
    expect(events[1]?.data).toEqual({ id, status: 'pending_kyc', external_id: null, kyc: after.kyc });

    // A second click on the used page changes nothing.
    const twice = await clickButton(sandbox, path, 'rejected');
    expect(twice.status).toBe(409);
    expect(await twice.text()).toContain('Capture approved');
    expect(kycStatuses(await customer(sandbox, id)).biometrics).toBe('approved');
  });

  it('Fail moves the item to pending_resubmission with feedback; a new session can then pass', async () => {
    const sandbox = createTestSandbox();
    const { id } = await createCustomer(sandbox);
    const path = hostedPath(await startSession(sandbox, id));
    expect((await clickButton(sandbox, path, 'rejected')).status).toBe(303);
    expect(await (await sandbox.app.request(path)).text()).toContain('Capture failed');
    const failed = await customer(sandbox, id);
    expect(failed.kyc.find((i) => i.type === 'biometrics')).toMatchObject({
      status: 'pending_resubmission',
      message: FAILED,
    });
    const retry = await startSession(sandbox, id);
    const done = await sandbox.json<CustomerBody>('POST', `/v3/sandbox/customers/${id}/biometrics/complete`, {
      body: { outcome: 'approved' },
    });
    expect(done.status).toBe(200);
    expect(done.body.kyc.find((i) => i.type === 'biometrics')).toMatchObject({
      status: 'approved',
      message: null,
    });
    expect(await (await sandbox.app.request(hostedPath(retry))).text()).toContain('Capture approved');
  });

  it('an expired session shows as expired and cannot complete', async () => {
    const sandbox = createTestSandbox();
    const { id } = await createCustomer(sandbox);
    const path = hostedPath(await startSession(sandbox, id));
    await advance(sandbox, '14m');
    expect((await sandbox.app.request(path)).status).toBe(200);
    await advance(sandbox, '1m');
    const expired = await sandbox.app.request(path);
    expect(expired.status).toBe(410);
    const html = await expired.text();
    expect(html).toContain('<span class="badge expired" id="result">Session expired</span>');
    expect(html).toContain('expired at 02/03/2026 12:15 UTC (partner clock)');
    expect(html).toContain('Sandbox — not a real biometric capture');
    expect(html).not.toContain('<form');
    const click = await clickButton(sandbox, path, 'approved');
    expect(click.status).toBe(410);
    const control = await sandbox.json('POST', `/v3/sandbox/customers/${id}/biometrics/complete`, {
      body: { outcome: 'approved' },
    });
    expect(control.status).toBe(409);
    expect(control.body).toMatchObject({ code: 'no_biometrics_session' });
    expect(kycStatuses(await customer(sandbox, id)).biometrics).toBe('pending');
    expect(await customerEvents(sandbox)).toHaveLength(1);
  });

  it('answers 409 when biometrics are approved or the customer is active, 404 for unknown ones', async () => {
    const sandbox = createTestSandbox();
    const { id } = await createCustomer(sandbox);
    await startSession(sandbox, id);
    await sandbox.json('POST', `/v3/sandbox/customers/${id}/biometrics/complete`, {
      body: { outcome: 'approved' },
    });
    const again = await sandbox.json('POST', `/v3/customers/${id}/biometrics`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'biometrics_already_approved' });

    const active = await createCustomer(sandbox, { cpf: CPF.other });
    await submitAllKyc(sandbox, active.id);
    await advance(sandbox, '10s');
    const late = await sandbox.json('POST', `/v3/customers/${active.id}/biometrics`);
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 'kyc_completed' });

    expect(
      (await sandbox.json('POST', '/v3/customers/cust_00000000000000000000000000000000/biometrics')).status,
    ).toBe(404);
    const other = await newPartnerToken(sandbox);
    expect(
      (await sandbox.json('POST', `/v3/customers/${id}/biometrics`, { token: other.token })).status,
    ).toBe(404);
  });

  it('control complete needs an open session and a valid outcome', async () => {
    const sandbox = createTestSandbox();
    const { id } = await createCustomer(sandbox);
    const none = await sandbox.json('POST', `/v3/sandbox/customers/${id}/biometrics/complete`, {
      body: { outcome: 'approved' },
    });
    expect(none.status).toBe(409);
    expect(none.body).toMatchObject({ code: 'no_biometrics_session' });
    const bad = await sandbox.json('POST', `/v3/sandbox/customers/${id}/biometrics/complete`, {
      body: { outcome: 'maybe' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ param: 'outcome' });
  });

  it('a reviewer can reject approved biometrics during review (back to pending_kyc)', async () => {
    const sandbox = createTestSandbox();
    const { id } = await createCustomer(sandbox);
    await submitAllKyc(sandbox, id);
    const res = await sandbox.json<CustomerBody>(
      'POST',
      `/v3/sandbox/customers/${id}/kyc/biometrics/reject`,
      {
        body: { message: 'Photo of a photo.' },
      },
    );
    expect(res.body.status).toBe('pending_kyc');
    expect(res.body.kyc.find((i) => i.type === 'biometrics')).toMatchObject({
      status: 'pending_resubmission',
      message: 'Photo of a photo.',
    });
    expect((await sandbox.json('POST', `/v3/customers/${id}/biometrics`)).status).toBe(200);
  });

  it('the hosted page answers 404 for an unknown token and 400 without an outcome', async () => {
    const sandbox = createTestSandbox();
    const unknown = await sandbox.app.request('/hosted/biometrics/not-a-token');
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('not valid');
    const { id } = await createCustomer(sandbox);
    const path = hostedPath(await startSession(sandbox, id));
    const empty = await clickButton(sandbox, path, 'maybe');
    expect(empty.status).toBe(400);
    expect(kycStatuses(await customer(sandbox, id)).biometrics).toBe('pending');
  });

  it('the hosted page answers 400 (not 500) to a form body it cannot parse', async () => {
    const sandbox = createTestSandbox();
    const { id } = await createCustomer(sandbox);
    const path = hostedPath(await startSession(sandbox, id));
    for (const contentType of ['multipart/form-data; boundary=xx', 'multipart/form-data']) {
      const res = await sandbox.app.request(path, {
        method: 'POST',
        headers: { 'content-type': contentType },
        body: '--xx\r\nbroken',
      });
      expect(res.status, contentType).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toContain('Choose Approve or Fail.');
    }
    expect(kycStatuses(await customer(sandbox, id)).biometrics).toBe('pending');
    expect((await clickButton(sandbox, path, 'approved')).status).toBe(303);
  });
});
