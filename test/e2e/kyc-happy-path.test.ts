import { describe, expect, it } from 'vitest';
import {
  advance,
  CNPJ,
  CPF,
  type CustomerBody,
  createCustomer,
  customerEvents,
  fixture,
  kycStatuses,
  upload,
} from '../support/customers.js';
import { createTestSandbox } from '../support/sandbox.js';

const T0 = '2026-03-02T12:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();

function item(type: string, status: string, uploaded_at: string | null, description: string) {
  return { kind: 'document', type, description, status, message: null, uploaded_at };
}
const FRONT = 'Identity document (RG or CNH), front';
const BACK = 'Identity document (RG or CNH), back';
const SELFIE = 'Selfie holding the identity document';
const BIO =
  'Facial biometrics (liveness capture): not uploaded; start a capture session with POST /v3/customers/{id}/biometrics';

describe('KYC happy path', () => {
  it('takes an individual from pending_kyc to active with every event, payload and order', async () => {
    const sandbox = createTestSandbox();
    const customer = await createCustomer(sandbox, { external_id: 'user-1' });
    expect(customer).toEqual({
      id: expect.stringMatching(/^cust_[0-9a-f]{32}$/),
      status: 'pending_kyc',
      cpf: CPF.plain,
      cnpj: null,
      name: 'Maria da Silva',
      email: 'maria@example.com',
      phone: '+5511987654321',
      trading_name: null,
      external_id: 'user-1',
      kyc: [
        item('identity_card_front', 'pending', null, FRONT),
        item('identity_card_back', 'pending', null, BACK),
        item('selfie', 'pending', null, SELFIE),
        item('biometrics', 'pending', null, BIO),
      ],
      created_at: T0,
      updated_at: T0,
    });
    const id = customer.id;

    // t=0 front (PDF), t=1 back (JPEG), t=2 selfie (PNG), t=3 biometrics approved.
    expect(
      (
        await upload(sandbox, id, 'identity_card_front', {
          bytes: fixture('sample.pdf'),
          filename: 'f.pdf',
          contentType: 'application/pdf',
        })
      ).status,
    ).toBe(201);
    await advance(sandbox, '1s');
    expect(
      (
        await upload(sandbox, id, 'identity_card_back', {
          bytes: fixture('sample.jpg'),
          filename: 'b.jpg',
          contentType: 'image/jpeg',
        })
      ).status,
    ).toBe(201);
    await advance(sandbox, '1s');
    expect((await upload(sandbox, id, 'selfie')).status).toBe(201);
    await advance(sandbox, '1s');
    const session = await sandbox.json<{ session_url: string; expires_at: string }>(
      'POST',
      `/v3/customers/${id}/biometrics`,
    );
    expect(session.status).toBe(200);
    const done = await sandbox.json<CustomerBody>('POST', `/v3/sandbox/customers/${id}/biometrics/complete`, {
      body: { outcome: 'approved' },
    });
    expect(done.body.status).toBe('under_review');

    // Documents are reviewed 5 s after their upload: t=5, 6, 7.
    await advance(sandbox, '4s'); // t=7
    const reviewed = await sandbox.json<CustomerBody>('GET', `/v3/customers/${id}`);
    expect(reviewed.body.status).toBe('under_review');
    expect(kycStatuses(reviewed.body)).toEqual({
      identity_card_front: 'approved',
      identity_card_back: 'approved',
      selfie: 'approved',
      biometrics: 'approved',
    });
    // The KYC review completes 10 s after the last submission (t=3): not yet at t=12.9 …
    await advance(sandbox, '5s'); // t=12
    expect((await sandbox.json<CustomerBody>('GET', `/v3/customers/${id}`)).body.status).toBe('under_review');
    await advance(sandbox, '1s'); // t=13
    const active = await sandbox.json<CustomerBody>('GET', `/v3/customers/${id}`);
    expect(active.body.status).toBe('active');
    expect(active.body.updated_at).toBe(at(13));

    const events = await customerEvents(sandbox);
    const kycAt = (statuses: string[], uploaded: (string | null)[]) =>
      [
        ['identity_card_front', FRONT],
        ['identity_card_back', BACK],
        ['selfie', SELFIE],
        ['biometrics', BIO],
      ].map(([type, description], k) =>
        item(type as string, statuses[k] as string, uploaded[k] as string | null, description as string),
      );
    const up = [at(0), at(1), at(2), at(3)];
    expect(events.map((e) => [e.type, e.timestamp, e.data])).toEqual([
      [
        'customer.created',
        at(0),
        {
          id,
          status: 'pending_kyc',
          cpf: CPF.plain,
          cnpj: null,
          name: 'Maria da Silva',
          email: 'maria@example.com',
          phone: '+5511987654321',
          trading_name: null,
          external_id: 'user-1',
        },
      ],
      [
        'customer.kyc_updated',
        at(0),
        {
          id,
          status: 'pending_kyc',
          external_id: 'user-1',
          kyc: kycAt(['submitted', 'pending', 'pending', 'pending'], [at(0), null, null, null]),
        },
      ],
      [
        'customer.kyc_updated',
        at(1),
        {
          id,
          status: 'pending_kyc',
          external_id: 'user-1',
          kyc: kycAt(['submitted', 'submitted', 'pending', 'pending'], [at(0), at(1), null, null]),
        },
      ],
      [
        'customer.kyc_updated',
        at(2),
        {
          id,
          status: 'pending_kyc',
          external_id: 'user-1',
          kyc: kycAt(['submitted', 'submitted', 'submitted', 'pending'], [at(0), at(1), at(2), null]),
        },
      ],
      [
        'customer.kyc_updated',
        at(3),
        {
          id,
          status: 'pending_kyc',
          external_id: 'user-1',
          kyc: kycAt(['submitted', 'submitted', 'submitted', 'approved'], up),
        },
      ],
      ['customer.under_review', at(3), { id, status: 'under_review', external_id: 'user-1' }],
      [
        'customer.kyc_updated',
        at(5),
        {
          id,
          status: 'under_review',
          external_id: 'user-1',
          kyc: kycAt(['approved', 'submitted', 'submitted', 'approved'], up),
        },
      ],
      [
        'customer.kyc_updated',
        at(6),
        {
          id,
          status: 'under_review',
          external_id: 'user-1',
          kyc: kycAt(['approved', 'approved', 'submitted', 'approved'], up),
        },
      ],
      [
        'customer.kyc_updated',
        at(7),
        {
          id,
          status: 'under_review',
          external_id: 'user-1',
          kyc: kycAt(['approved', 'approved', 'approved', 'approved'], up),
        },
      ],
      ['customer.active', at(13), { id, status: 'active', external_id: 'user-1' }],
    ]);
  });

  it('asks an MEI (with cnpj) for the CCMEI too, and stores the cnpj normalized', async () => {
    const sandbox = createTestSandbox();
    const customer = await createCustomer(sandbox, {
      cpf: CPF.masked,
      cnpj: '12.abc.345/01de-35',
      trading_name: 'Doces da Maria',
    });
    expect(customer.cpf).toBe(CPF.plain);
    expect(customer.cnpj).toBe(CNPJ.alnum);
    expect(customer.kyc.map((i) => i.type)).toEqual([
      'identity_card_front',
      'identity_card_back',
      'selfie',
      'biometrics',
      'ccmei',
    ]);
    expect(customer.kyc.at(-1)).toEqual({
      kind: 'document',
      type: 'ccmei',
      description: 'MEI registration certificate (CCMEI)',
      status: 'pending',
      message: null,
      uploaded_at: null,
    });
  });
});
