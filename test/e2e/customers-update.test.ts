import { describe, expect, it } from 'vitest';
import {
  advance,
  CNPJ,
  CPF,
  type CustomerBody,
  createCustomer,
  customerEvents,
  kycStatuses,
  submitAllKyc,
  upload,
} from '../support/customers.js';
import { createTestSandbox } from '../support/sandbox.js';

describe('PATCH /v3/customers/{id}', () => {
  it('changes only the fields sent and moves updated_at, without events', async () => {
    const sandbox = createTestSandbox();
    const customer = await createCustomer(sandbox, { trading_name: 'Old' });
    await advance(sandbox, '1m');
    const res = await sandbox.json<CustomerBody>('PATCH', `/v3/customers/${customer.id}`, {
      body: { email: 'new@example.com', phone: '+5521999990000', trading_name: null },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...customer,
      email: 'new@example.com',
      phone: '+5521999990000',
      trading_name: null,
      updated_at: '2026-03-02T12:01:00.000Z',
    });
    expect((await sandbox.json('GET', `/v3/customers/${customer.id}`)).body).toEqual(res.body);
    const empty = await sandbox.json<CustomerBody>('PATCH', `/v3/customers/${customer.id}`, { body: {} });
    expect(empty.status).toBe(200);
    expect((await customerEvents(sandbox)).map((e) => e.type)).toEqual(['customer.created']);
  });

  it.each([
    [{ cpf: CPF.other }, ['cpf']],
    [{ external_id: 'new' }, ['external_id']],
    [{ cpf: CPF.plain, external_id: null, name: 'x' }, ['cpf', 'external_id']],
  ])('refuses %j with 422 naming the field', async (body, params) => {
    const sandbox = createTestSandbox();
    const customer = await createCustomer(sandbox, { external_id: 'old' });
    const res = await sandbox.json<{
      code: string;
      param: string;
      errors: { param: string }[];
      detail: string;
    }>('PATCH', `/v3/customers/${customer.id}`, { body });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('immutable_field');
    expect(res.body.param).toBe(params[0]);
    expect(res.body.errors.map((e) => e.param)).toEqual(params);
    expect(res.body.detail).toContain(params[0]);
    expect((await sandbox.json('GET', `/v3/customers/${customer.id}`)).body).toEqual(customer);
  });

  it.each([
    [{ email: 'nope' }, 400, 'email'],
    [{ phone: '12345' }, 400, 'phone'],
    [{ name: null }, 400, 'name'],
    [{ name: 42 }, 400, 'name'],
    [{ status: 'active' }, 400, 'body'],
    [{ cnpj: '11222333000182' }, 422, 'cnpj'],
  ])('refuses %j with %i', async (body, status, param) => {
    const sandbox = createTestSandbox();
    const customer = await createCustomer(sandbox);
    const res = await sandbox.json('PATCH', `/v3/customers/${customer.id}`, { body });
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ param });
    expect((await sandbox.json('GET', `/v3/customers/${customer.id}`)).body).toEqual(customer);
  });

  it('answers 404 for an unknown customer and 409 for a cnpj another customer has', async () => {
    const sandbox = createTestSandbox();
    await createCustomer(sandbox, { cnpj: CNPJ.numeric });
    const other = await createCustomer(sandbox, { cpf: CPF.other });
    const missing = await sandbox.json('PATCH', '/v3/customers/cust_00000000000000000000000000000000', {
      body: { name: 'x' },
    });
    expect(missing.status).toBe(404);
    const clash = await sandbox.json('PATCH', `/v3/customers/${other.id}`, { body: { cnpj: CNPJ.masked } });
    expect(clash.status).toBe(409);
    expect(clash.body).toMatchObject({ code: 'customer_exists', param: 'cnpj' });
  });

  it('adds the CCMEI requirement with a cnpj (kyc_updated), and drops it without', async () => {
    const sandbox = createTestSandbox();
    const customer = await createCustomer(sandbox);
    const mei = await sandbox.json<CustomerBody>('PATCH', `/v3/customers/${customer.id}`, {
      body: { cnpj: '12.abc.345/01de-35', trading_name: 'Doces' },
    });
    expect(mei.body.cnpj).toBe(CNPJ.alnum);
    expect(kycStatuses(mei.body)).toEqual({
      identity_card_front: 'pending',
      identity_card_back: 'pending',
      selfie: 'pending',
      biometrics: 'pending',
      ccmei: 'pending',
    });
    const events = await customerEvents(sandbox);
    expect(events.map((e) => e.type)).toEqual(['customer.created', 'customer.kyc_updated']);
    expect(events[1]?.data).toEqual({
      id: customer.id,
      status: 'pending_kyc',
      external_id: null,
      kyc: mei.body.kyc,
    });
    const individual = await sandbox.json<CustomerBody>('PATCH', `/v3/customers/${customer.id}`, {
      body: { cnpj: null },
    });
    expect(individual.body.cnpj).toBeNull();
    expect(individual.body.kyc.map((i) => i.type)).not.toContain('ccmei');
  });

  it('sends an MEI under review back to pending_kyc when the cnpj changes, asking for the CCMEI again', async () => {
    const sandbox = createTestSandbox();
    const customer = await createCustomer(sandbox, { cnpj: CNPJ.numeric });
    await submitAllKyc(sandbox, customer.id, ['ccmei']);
    expect((await sandbox.json<CustomerBody>('GET', `/v3/customers/${customer.id}`)).body.status).toBe(
      'under_review',
    );
    const changed = await sandbox.json<CustomerBody>('PATCH', `/v3/customers/${customer.id}`, {
      body: { cnpj: CNPJ.alnum },
    });
    expect(changed.body.status).toBe('pending_kyc');
    expect(changed.body.kyc.find((i) => i.type === 'ccmei')).toMatchObject({
      status: 'pending_resubmission',
      message: 'The CNPJ changed: upload the CCMEI of the new company.',
    });
    // The review that was due no longer runs; a new CCMEI resumes KYC to the end.
    await advance(sandbox, '30s');
    expect((await sandbox.json<CustomerBody>('GET', `/v3/customers/${customer.id}`)).body.status).toBe(
      'pending_kyc',
    );
    expect((await upload(sandbox, customer.id, 'ccmei')).status).toBe(201);
    await advance(sandbox, '10s');
    expect((await sandbox.json<CustomerBody>('GET', `/v3/customers/${customer.id}`)).body.status).toBe(
      'active',
    );
  });

  it('refuses to change the cnpj of an active customer (409) but updates its other data', async () => {
    const sandbox = createTestSandbox();
    const customer = await createCustomer(sandbox);
    await submitAllKyc(sandbox, customer.id);
    await advance(sandbox, '10s');
    const res = await sandbox.json('PATCH', `/v3/customers/${customer.id}`, { body: { cnpj: CNPJ.numeric } });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'kyc_completed', param: 'cnpj' });
    const renamed = await sandbox.json<CustomerBody>('PATCH', `/v3/customers/${customer.id}`, {
      body: { name: 'Maria S.' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Maria S.', status: 'active' });
  });
});

describe('removing the CNPJ while its CCMEI awaits review', () => {
  it('rejects the CCMEI document instead of leaving it submitted forever', async () => {
    const sandbox = createTestSandbox();
    const customer = await createCustomer(sandbox, { cnpj: CNPJ.numeric });
    const uploaded = await upload(sandbox, customer.id, 'ccmei');
    expect(uploaded.status).toBe(201);
    const location = uploaded.headers.get('location') as string;
    const patched = await sandbox.json<CustomerBody>('PATCH', `/v3/customers/${customer.id}`, {
      body: { cnpj: null },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.kyc.map((i) => i.type)).not.toContain('ccmei');
    const document = await sandbox.json<{ status: string }>('GET', location);
    expect(document.body.status).toBe('rejected');
    // The review job that comes 5 s later finds nothing to review and changes nothing.
    await advance(sandbox, '10s');
    expect((await sandbox.json<{ status: string }>('GET', location)).body.status).toBe('rejected');
  });
});
