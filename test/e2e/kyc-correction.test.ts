import { describe, expect, it } from 'vitest';
import {
  advance,
  CPF,
  type CustomerBody,
  createCustomer,
  customerEvents,
  submitAllKyc,
} from '../support/customers.js';
import { createTestSandbox } from '../support/sandbox.js';

const T0 = Date.parse('2026-03-02T12:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();
const NAME_MESSAGE =
  'The name does not match the identity document. Send the full name as printed on it (PATCH the customer).';

describe('KYC data correction', () => {
  it('magic profile correction_requested: the review asks for the name; a PATCH resumes KYC to active', async () => {
    const sandbox = createTestSandbox();
    const customer = await createCustomer(sandbox, { cpf: '000.000.002-72', name: 'Maria' });
    const id = customer.id;
    await submitAllKyc(sandbox, id); // t=0
    await advance(sandbox, '10s'); // documents approved at 5, review at 10
    const asked = (await sandbox.json<CustomerBody>('GET', `/v3/customers/${id}`)).body;
    expect(asked.status).toBe('pending_kyc');
    expect(asked.kyc.at(-1)).toEqual({
      kind: 'data',
      type: 'name',
      description: 'Full name, as printed on the identity document',
      status: 'pending_correction',
      message: NAME_MESSAGE,
      uploaded_at: null,
    });
    const before = (await customerEvents(sandbox)).length;

    await advance(sandbox, '1m'); // t=70: nothing happens while waiting on the customer
    expect((await customerEvents(sandbox)).length).toBe(before);
    const patched = await sandbox.json<CustomerBody>('PATCH', `/v3/customers/${id}`, {
      body: { name: 'Maria da Silva Santos' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.name).toBe('Maria da Silva Santos');
    expect(patched.body.status).toBe('under_review');
    expect(patched.body.kyc.at(-1)).toMatchObject({
      status: 'submitted',
      message: null,
      uploaded_at: at(70),
    });
    await advance(sandbox, '10s');
    const active = (await sandbox.json<CustomerBody>('GET', `/v3/customers/${id}`)).body;
    expect(active.status).toBe('active');
    expect(active.kyc.at(-1)).toMatchObject({ type: 'name', status: 'approved' });

    const events = (await customerEvents(sandbox)).slice(before - 1);
    expect(events.map((e) => [e.type, e.timestamp])).toEqual([
      ['customer.kyc_updated', at(10)],
      ['customer.kyc_updated', at(70)],
      ['customer.under_review', at(70)],
      ['customer.kyc_updated', at(80)],
      ['customer.active', at(80)],
    ]);
    expect(events[0]?.data).toEqual({
      id,
      status: 'pending_kyc',
      external_id: null,
      kyc: asked.kyc,
    });
    expect(events[1]?.data).toMatchObject({ status: 'pending_kyc' });
    expect((events[1]?.data.kyc as { status: string }[] | undefined)?.at(-1)?.status).toBe('submitted');
    expect(events[2]?.data).toEqual({ id, status: 'under_review', external_id: null });
    expect(events[4]?.data).toEqual({ id, status: 'active', external_id: null });
  });

  it('control request-correction during review, corrected by PATCH', async () => {
    const sandbox = createTestSandbox();
    const customer = await createCustomer(sandbox, { external_id: 'ext' });
    const id = customer.id;
    await submitAllKyc(sandbox, id);
    await advance(sandbox, '5s');
    const asked = await sandbox.json<CustomerBody>(
      'POST',
      `/v3/sandbox/customers/${id}/kyc/email/request-correction`,
      {
        body: { message: 'Use a personal email.' },
      },
    );
    expect(asked.status).toBe(200);
    expect(asked.body.status).toBe('pending_kyc');
    expect(asked.body.kyc.at(-1)).toMatchObject({
      kind: 'data',
      type: 'email',
      status: 'pending_correction',
      message: 'Use a personal email.',
    });
    // Asking again while the correction is pending is not a move of the table.
    const twice = await sandbox.json('POST', `/v3/sandbox/customers/${id}/kyc/email/request-correction`);
    expect(twice.status).toBe(409);

    await advance(sandbox, '1m'); // the review due at t=10 was cancelled
    expect((await sandbox.json<CustomerBody>('GET', `/v3/customers/${id}`)).body.status).toBe('pending_kyc');
    const fixed = await sandbox.json<CustomerBody>('PATCH', `/v3/customers/${id}`, {
      body: { email: 'maria.silva@example.com' },
    });
    expect(fixed.body.status).toBe('under_review');
    await advance(sandbox, '10s');
    const active = (await sandbox.json<CustomerBody>('GET', `/v3/customers/${id}`)).body;
    expect(active).toMatchObject({ status: 'active', email: 'maria.silva@example.com' });
    const events = await customerEvents(sandbox);
    expect(events.filter((e) => e.type === 'customer.under_review')).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({
      type: 'customer.active',
      data: { id, status: 'active', external_id: 'ext' },
    });
  });

  it('a PATCH of a field without a pending correction changes no KYC item', async () => {
    const sandbox = createTestSandbox();
    const customer = await createCustomer(sandbox);
    await sandbox.json('POST', `/v3/sandbox/customers/${customer.id}/kyc/phone/request-correction`);
    const res = await sandbox.json<CustomerBody>('PATCH', `/v3/customers/${customer.id}`, {
      body: { name: 'Ana' },
    });
    expect(res.body.kyc.at(-1)).toMatchObject({ type: 'phone', status: 'pending_correction' });
  });

  it('refuses corrections of documents and unknown fields (422) and of active customers (409)', async () => {
    const sandbox = createTestSandbox();
    const customer = await createCustomer(sandbox);
    const doc = await sandbox.json(
      'POST',
      `/v3/sandbox/customers/${customer.id}/kyc/selfie/request-correction`,
    );
    expect(doc.status).toBe(422);
    expect(doc.body).toMatchObject({ code: 'kyc_type_not_applicable', param: 'type' });
    const unknown = await sandbox.json(
      'POST',
      `/v3/sandbox/customers/${customer.id}/kyc/cpf/request-correction`,
    );
    expect(unknown.status).toBe(422);
    const done = await createCustomer(sandbox, { cpf: CPF.other });
    await submitAllKyc(sandbox, done.id);
    await advance(sandbox, '10s');
    const late = await sandbox.json('POST', `/v3/sandbox/customers/${done.id}/kyc/name/request-correction`);
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 'kyc_completed' });
  });
});
