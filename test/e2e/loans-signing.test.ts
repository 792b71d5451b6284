import { describe, expect, it } from 'vitest';
import {
  activeCustomer,
  advanceClock,
  createLoan,
  eventsOf,
  getLoan,
  type OfferBody,
  offersOf,
  simulate,
  TIER_CPF,
} from '../support/credit.js';
import { createTestSandbox, type TestSandbox } from '../support/sandbox.js';

/** A loan waiting for its signature, and the path of its signing page. */
async function awaitingLoan(sandbox: TestSandbox) {
  const customer = await activeCustomer(sandbox, { cpf: TIER_CPF.standard });
  const offer = (await offersOf(sandbox, customer.id))[0] as OfferBody;
  const sim = await simulate(sandbox, offer.id, '10000.00', 12);
  const loan = await createLoan(sandbox, offer.id, sim.id);
  await advanceClock(sandbox, { by: '3s' });
  const url = (await getLoan(sandbox, loan.id)).signing_url as string;
  return { loan, url, path: new URL(url).pathname };
}

const open = (sandbox: TestSandbox, path: string, method = 'GET') => sandbox.app.request(path, { method });

describe('hosted signing page', () => {
  it('shows the CCB terms, the schedule, and Sign / Decline without any script', async () => {
    const sandbox = createTestSandbox();
    const { loan, path } = await awaitingLoan(sandbox);
    const res = await open(sandbox, path);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await res.text();
    expect(html).not.toContain('<script');
    const ccb = (await getLoan(sandbox, loan.id)).ccb_number as string;
    for (const text of [
      ccb,
      'R$ 10.000,00',
      'R$ 206,87',
      'R$ 9.793,13',
      'R$ 11.347,20',
      '31,83% a year',
      '2,00% a month',
      '12 × R$ 945,60',
      '02/04/2026',
      '02/03/2027',
      '123.456.007-05',
      'Sandbox — not a real contract',
      'partner clock: <strong>',
      '· real time ',
    ]) {
      expect(html).toContain(text);
    }
    expect(html.match(/<tr><td>\d+<\/td>/g)).toHaveLength(12);
    expect(html).toContain(`action="${path}/sign"`);
    expect(html).toContain(`action="${path}/decline"`);
  });

  it('Sign posts back, redirects to the page, and the loan is signed with loan.signed', async () => {
    const sandbox = createTestSandbox();
    const { loan, path } = await awaitingLoan(sandbox);
    const res = await open(sandbox, `${path}/sign`, 'POST');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${path}?done=sign`);
    expect((await getLoan(sandbox, loan.id)).status).toBe('signed');
    expect((await eventsOf(sandbox, 'loan.signed')).map((e) => e.data.id)).toEqual([loan.id]);
    const after = await (await open(sandbox, `${path}?done=sign`)).text();
    expect(after).toContain('the contract is signed');
    expect(after).not.toContain('/sign"');
    // Signing twice is refused on the page, not applied.
    const twice = await open(sandbox, `${path}/sign`, 'POST');
    expect(twice.status).toBe(409);
    expect(await twice.text()).toContain('is signed; it cannot sign');
    await advanceClock(sandbox, { by: '5s' });
    expect((await getLoan(sandbox, loan.id)).status).toBe('active');
  });

  it('Decline cancels the loan', async () => {
    const sandbox = createTestSandbox();
    const { loan, path } = await awaitingLoan(sandbox);
    const res = await open(sandbox, `${path}/decline`, 'POST');
    expect(res.status).toBe(303);
    const cancelled = await getLoan(sandbox, loan.id);
    expect(cancelled.status).toBe('cancelled');
    const [event] = await eventsOf(sandbox, 'loan.cancelled');
    expect(event?.data).toEqual({ ...cancelled, reason: 'signature_declined' });
  });

  it('answers 404 for a wrong token or loan, and offers no buttons before the signature request', async () => {
    const sandbox = createTestSandbox();
    const customer = await activeCustomer(sandbox, { cpf: TIER_CPF.standard });
    const offer = (await offersOf(sandbox, customer.id))[0] as OfferBody;
    const sim = await simulate(sandbox, offer.id, '1000.00', 12);
    const loan = await createLoan(sandbox, offer.id, sim.id);
    await advanceClock(sandbox, { by: '2s' });
    // contract_generated: the event and the loan show the URL the contract will be signed at.
    const [generated] = await eventsOf(sandbox, 'loan.contract_generated');
    const path = new URL(String(generated?.data.signing_url)).pathname;
    expect((await getLoan(sandbox, loan.id)).signing_url).toBe(`http://sandbox.test${path}`);
    const early = await (await open(sandbox, path)).text();
    expect(early).toContain('being sent for signature');
    expect(early).not.toContain('/sign"');
    expect((await open(sandbox, `${path}/sign`, 'POST')).status).toBe(409);
    expect((await getLoan(sandbox, loan.id)).status).toBe('contract_generated');

    const wrongToken = path.replace(/[\w-]{32}$/, 'x'.repeat(32));
    expect((await open(sandbox, wrongToken)).status).toBe(404);
    expect((await open(sandbox, `${wrongToken}/sign`, 'POST')).status).toBe(404);
    expect((await open(sandbox, path.replace(loan.id, 'ln_nope'))).status).toBe(404);
    await advanceClock(sandbox, { by: '1s' });
    expect((await getLoan(sandbox, loan.id)).signing_url).toBe(`http://sandbox.test${path}`);
  });
});

describe('signature window', () => {
  it('cancels a loan still awaiting its signature at 00:00 São Paulo time of its first due date', async () => {
    const sandbox = createTestSandbox();
    const { loan } = await awaitingLoan(sandbox);
    const awaiting = await getLoan(sandbox, loan.id);
    expect(awaiting.status).toBe('awaiting_signatures');
    // One second before midnight (São Paulo, UTC-3) of the first due date it still waits.
    const deadline = Date.parse(`${awaiting.first_due_date}T03:00:00.000Z`);
    await advanceClock(sandbox, { to: new Date(deadline - 1000).toISOString() });
    expect((await getLoan(sandbox, loan.id)).status).toBe('awaiting_signatures');
    await advanceClock(sandbox, { by: '1s' });
    const cancelled = await getLoan(sandbox, loan.id);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.cancelled_at).toBe(`${awaiting.first_due_date}T03:00:00.000Z`);
    const events = await eventsOf(sandbox, 'loan.cancelled');
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toMatchObject({ id: loan.id, status: 'cancelled', reason: 'signature_expired' });
    // Too late to sign now.
    const sign = await sandbox.json('POST', `/v3/sandbox/loans/${loan.id}/sign`);
    expect(sign.status).toBe(409);
  });

  it('leaves a loan signed in time alone when its first due date comes', async () => {
    const sandbox = createTestSandbox();
    const { loan } = await awaitingLoan(sandbox);
    expect((await sandbox.json('POST', `/v3/sandbox/loans/${loan.id}/sign`)).status).toBe(200);
    const signed = await getLoan(sandbox, loan.id);
    await advanceClock(sandbox, { to: `${signed.first_due_date}T03:00:00.000Z` });
    expect((await getLoan(sandbox, loan.id)).status).toBe('active');
    expect(await eventsOf(sandbox, 'loan.cancelled')).toHaveLength(0);
  });
});
