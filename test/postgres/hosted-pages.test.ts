import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  activeCustomer,
  advanceClock,
  createLoan,
  getLoan,
  type OfferBody,
  offersOf,
  simulate,
  TIER_CPF,
} from '../support/credit.js';
import { createCustomer } from '../support/customers.js';
import { freshDatabase } from './support/database.js';
import { type Instance, startInstance, stopInstance } from './support/fleet.js';
import { httpSandbox } from './support/http-sandbox.js';

describe('shared mode: hosted pages and the token endpoint on a non-owner instance', () => {
  let owner: Instance;
  let other: Instance;

  beforeAll(async () => {
    const url = await freshDatabase('pages');
    [owner, other] = await Promise.all([startInstance(url), startInstance(url)]);
  });

  afterAll(async () => {
    await Promise.all([owner, other].map(stopInstance));
  });

  it('serves the contract page, its Sign button and the capture page through the other instance', async () => {
    const api = httpSandbox(() => owner.url);
    const customer = await activeCustomer(api, { cpf: TIER_CPF.standard });
    const offer = (await offersOf(api, customer.id))[0] as OfferBody;
    const loan = await createLoan(api, offer.id, (await simulate(api, offer.id, '2000.00', 12)).id);
    await advanceClock(api, { by: '3s' });
    const signing = new URL((await getLoan(api, loan.id)).signing_url as string).pathname;

    const page = await fetch(`${other.url}${signing}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(loan.id);
    const signed = await fetch(`${other.url}${signing}/sign`, { method: 'POST', redirect: 'manual' });
    expect(signed.status).toBe(303);
    expect((await getLoan(api, loan.id)).status).toBe('signed');

    const someone = await createCustomer(api, { cpf: '52998224725' });
    const session = await api.json<{ session_url: string }>('POST', `/v3/customers/${someone.id}/biometrics`);
    const capture = await fetch(`${other.url}${new URL(session.body.session_url).pathname}`);
    expect(capture.status).toBe(200);
  });

  it('issues tokens and lists created partners on any instance, for partners owned anywhere', async () => {
    const created = await httpSandbox(() => owner.url).json<{ client_id: string; client_secret: string }>(
      'POST',
      '/v3/sandbox/partners',
      { body: { name: 'elsewhere' } },
    );
    for (const instance of [owner, other]) {
      const token = await httpSandbox(
        () => instance.url,
        created.body.client_id,
        created.body.client_secret,
      ).token();
      const clock = await fetch(`${instance.url}/v3/sandbox/clock`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(clock.status).toBe(200);
    }
    // The creator lists what it created whichever instance now holds each new partner.
    const second = await httpSandbox(() => other.url).json('POST', '/v3/sandbox/partners', {
      body: { name: 'two' },
    });
    expect(second.status).toBe(201);
    for (const instance of [owner, other]) {
      const listed = await httpSandbox(() => instance.url).json<{ data: { name: string }[] }>(
        'GET',
        '/v3/sandbox/partners',
      );
      expect(listed.status).toBe(200);
      expect(listed.body.data.map((p) => p.name)).toEqual(['two', 'elsewhere']);
    }
    const wrong = await httpSandbox(() => other.url, created.body.client_id, 'svc_cs_test_wrong')
      .token()
      .catch((e: Error) => e);
    expect(String(wrong)).toMatch(/401/);
  });
});
