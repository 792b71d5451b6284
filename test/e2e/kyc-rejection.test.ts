import { describe, expect, it } from 'vitest';
import {
  advance,
  CPF,
  type CustomerBody,
  completeBiometrics,
  createCustomer,
  customerEvents,
  kycStatuses,
  submitAllKyc,
  upload,
} from '../support/customers.js';
import { createTestSandbox } from '../support/sandbox.js';

const T0 = Date.parse('2026-03-02T12:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();
const BLURRY =
  'The image is blurry and the text cannot be read. Upload a sharp, well-lit picture of the whole document.';

describe('KYC rejection and resubmission', () => {
  it('control reject during review: back to pending_kyc, review cancelled, resubmission goes on to active', async () => {
    const sandbox = createTestSandbox();
    const customer = await createCustomer(sandbox);
    const id = customer.id;
    const doc = await upload(sandbox, id, 'selfie');
    for (const type of ['identity_card_front', 'identity_card_back']) {
      expect((await upload(sandbox, id, type)).status).toBe(201);
    }
    await completeBiometrics(sandbox, id, 'approved'); // t=0: under review
    await advance(sandbox, '5s'); // documents approved

    const before = (await customerEvents(sandbox)).length;
    const rejected = await sandbox.json<CustomerBody>(
      'POST',
      `/v3/sandbox/customers/${id}/kyc/selfie/reject`,
      {
        body: { message: 'Face not visible.' },
      },
    );
    expect(rejected.status).toBe(200);
    expect(rejected.body.status).toBe('pending_kyc');
    expect(rejected.body.kyc.find((i) => i.type === 'selfie')).toMatchObject({
      status: 'pending_resubmission',
      message: 'Face not visible.',
    });
    expect((await sandbox.json('GET', `/v3/customers/${id}/documents/${doc.body.id}`)).body).toMatchObject({
      status: 'rejected',
    });
    const after = (await customerEvents(sandbox)).slice(before);
    expect(after.map((e) => [e.type, e.timestamp, e.data.status])).toEqual([
      ['customer.kyc_updated', at(5), 'pending_kyc'],
    ]);

    // The review that was due at t=10 does not run.
    await advance(sandbox, '20s'); // t=25
    expect((await sandbox.json<CustomerBody>('GET', `/v3/customers/${id}`)).body.status).toBe('pending_kyc');

    const again = await upload(sandbox, id, 'selfie');
    expect(again.status).toBe(201);
    await advance(sandbox, '5s'); // t=30: selfie approved
    const reviewing = (await sandbox.json<CustomerBody>('GET', `/v3/customers/${id}`)).body;
    expect(reviewing.status).toBe('under_review');
    expect(reviewing.kyc.find((i) => i.type === 'selfie')).toMatchObject({
      status: 'approved',
      message: null,
    });
    await advance(sandbox, '5s'); // t=35 = 25 + 10
    expect((await sandbox.json<CustomerBody>('GET', `/v3/customers/${id}`)).body.status).toBe('active');
    const tail = (await customerEvents(sandbox)).slice(before + 1);
    expect(tail.map((e) => [e.type, e.timestamp, e.data.status])).toEqual([
      ['customer.kyc_updated', at(25), 'pending_kyc'],
      ['customer.under_review', at(25), 'under_review'],
      ['customer.kyc_updated', at(30), 'under_review'],
      ['customer.active', at(35), 'active'],
    ]);
  });

  it('magic profile document_rejected_once: every first upload is rejected, resubmissions pass', async () => {
    const sandbox = createTestSandbox();
    const customer = await createCustomer(sandbox, { cpf: '000.000.001-91' });
    const id = customer.id;
    await submitAllKyc(sandbox, id); // t=0, under review
    expect((await sandbox.json<CustomerBody>('GET', `/v3/customers/${id}`)).body.status).toBe('under_review');
    await advance(sandbox, '5s');
    const rejected = (await sandbox.json<CustomerBody>('GET', `/v3/customers/${id}`)).body;
    expect(rejected.status).toBe('pending_kyc');
    expect(rejected.kyc.filter((i) => i.type !== 'biometrics')).toEqual(
      ['identity_card_front', 'identity_card_back', 'selfie'].map((type) =>
        expect.objectContaining({ type, status: 'pending_resubmission', message: BLURRY }),
      ),
    );
    expect(kycStatuses(rejected).biometrics).toBe('approved');

    for (const type of ['identity_card_front', 'identity_card_back', 'selfie']) {
      expect((await upload(sandbox, id, type)).status).toBe(201);
    }
    await advance(sandbox, '5s'); // resubmissions approved
    const resubmitted = (await sandbox.json<CustomerBody>('GET', `/v3/customers/${id}`)).body;
    expect(resubmitted.status).toBe('under_review');
    expect(resubmitted.kyc.every((i) => i.status === 'approved' && i.message === null)).toBe(true);
    await advance(sandbox, '5s');
    expect((await sandbox.json<CustomerBody>('GET', `/v3/customers/${id}`)).body.status).toBe('active');

    const events = await customerEvents(sandbox);
    expect(events.map((e) => [e.type, e.timestamp, e.data.status])).toEqual([
      ['customer.created', at(0), 'pending_kyc'],
      ['customer.kyc_updated', at(0), 'pending_kyc'],
      ['customer.kyc_updated', at(0), 'pending_kyc'],
      ['customer.kyc_updated', at(0), 'pending_kyc'],
      ['customer.kyc_updated', at(0), 'pending_kyc'],
      ['customer.under_review', at(0), 'under_review'],
      // The first rejection reopens KYC; the next two happen while pending_kyc.
      ['customer.kyc_updated', at(5), 'pending_kyc'],
      ['customer.kyc_updated', at(5), 'pending_kyc'],
      ['customer.kyc_updated', at(5), 'pending_kyc'],
      ['customer.kyc_updated', at(5), 'pending_kyc'],
      ['customer.kyc_updated', at(5), 'pending_kyc'],
      ['customer.kyc_updated', at(5), 'pending_kyc'],
      ['customer.under_review', at(5), 'under_review'],
      ['customer.kyc_updated', at(10), 'under_review'],
      ['customer.kyc_updated', at(10), 'under_review'],
      ['customer.kyc_updated', at(10), 'under_review'],
      ['customer.active', at(15), 'active'],
    ]);
    const rejection = events[6]?.data.kyc as { type: string; status: string }[];
    expect(rejection.map((i) => i.status)).toEqual([
      'pending_resubmission',
      'submitted',
      'submitted',
      'approved',
    ]);
  });

  it('answers 409 for a move the item table does not have, 422 for a type that does not fit, 409 once active', async () => {
    const sandbox = createTestSandbox();
    const customer = await createCustomer(sandbox);
    const id = customer.id;
    const pending = await sandbox.json('POST', `/v3/sandbox/customers/${id}/kyc/selfie/reject`);
    expect(pending.status).toBe(409);
    expect(pending.body).toMatchObject({ code: 'invalid_kyc_transition' });
    const unknown = await sandbox.json('POST', `/v3/sandbox/customers/${id}/kyc/passport/reject`);
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({ code: 'kyc_type_not_applicable', param: 'type' });
    await sandbox.json('POST', `/v3/sandbox/customers/${id}/kyc/name/request-correction`);
    const data = await sandbox.json('POST', `/v3/sandbox/customers/${id}/kyc/name/reject`);
    expect(data.status).toBe(422);
    const missing = await sandbox.json(
      'POST',
      '/v3/sandbox/customers/cust_00000000000000000000000000000000/kyc/selfie/reject',
    );
    expect(missing.status).toBe(404);
    const badBody = await sandbox.json('POST', `/v3/sandbox/customers/${id}/kyc/selfie/reject`, {
      body: { message: 5 },
    });
    expect(badBody.status).toBe(400);

    const done = await createCustomer(sandbox, { cpf: CPF.other });
    await submitAllKyc(sandbox, done.id);
    await advance(sandbox, '10s');
    const late = await sandbox.json('POST', `/v3/sandbox/customers/${done.id}/kyc/selfie/reject`);
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 'kyc_completed' });
  });

  it('control approve: approves every submitted item now and activates a customer under review at once', async () => {
    const sandbox = createTestSandbox();
    const customer = await createCustomer(sandbox);
    const id = customer.id;
    await upload(sandbox, id, 'selfie');
    const partial = await sandbox.json<CustomerBody>('POST', `/v3/sandbox/customers/${id}/kyc/approve`);
    expect(partial.status).toBe(200);
    expect(partial.body.status).toBe('pending_kyc');
    expect(kycStatuses(partial.body)).toMatchObject({ selfie: 'approved', identity_card_front: 'pending' });
    for (const type of ['identity_card_front', 'identity_card_back']) await upload(sandbox, id, type);
    await completeBiometrics(sandbox, id, 'approved');
    const before = (await customerEvents(sandbox)).length;
    const approved = await sandbox.json<CustomerBody>('POST', `/v3/sandbox/customers/${id}/kyc/approve`);
    expect(approved.body.status).toBe('active');
    expect((await customerEvents(sandbox)).slice(before).map((e) => [e.type, e.data.status])).toEqual([
      ['customer.kyc_updated', 'under_review'],
      ['customer.kyc_updated', 'under_review'],
      ['customer.active', 'active'],
    ]);
    // The automatic moves that were due find nothing left to do.
    await advance(sandbox, '1m');
    expect((await customerEvents(sandbox)).length).toBe(before + 3);
    const again = await sandbox.json<CustomerBody>('POST', `/v3/sandbox/customers/${id}/kyc/approve`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(approved.body);
  });
});
