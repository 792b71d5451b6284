import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { randomIds } from '../../src/lib/ids.js';
import { Store } from '../../src/store/store.js';
import {
  advance,
  CPF,
  type CustomerBody,
  createCustomer,
  submitAllKyc,
  upload,
} from '../support/customers.js';
import { openJournal } from '../support/journal.js';
import { createTestSandbox } from '../support/sandbox.js';

describe('customers and KYC across a restart with --data', () => {
  it('restores customers, documents, pending reviews and hosted sessions', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'credit-sandbox-kyc-')), 'sandbox.json');
    const store = new Store(Buffer.alloc(32, 3).toString('base64url'));
    const first = createTestSandbox({}, { store, persistence: await openJournal(path, store) });
    const reviewing = await createCustomer(first, { external_id: 'a' });
    await submitAllKyc(first, reviewing.id); // documents and KYC reviews are due later
    const capturing = await createCustomer(first, { cpf: CPF.other, name: 'Ana' });
    const doc = await upload(first, capturing.id, 'selfie');
    const session = await first.json<{ session_url: string }>(
      'POST',
      `/v3/customers/${capturing.id}/biometrics`,
    );

    const restored = new Store('replaced-by-the-file');
    const second = createTestSandbox(
      {},
      { store: restored, persistence: await openJournal(path, restored), ids: randomIds },
    );
    expect((await second.json<CustomerBody>('GET', `/v3/customers/${reviewing.id}`)).body.status).toBe(
      'under_review',
    );
    expect((await second.json('GET', '/v3/customers?cpf=111.444.777-35')).body).toMatchObject({
      data: [{ id: capturing.id }],
    });
    expect((await second.json('GET', doc.headers.get('location') as string)).body).toEqual(doc.body);

    await advance(second, '10s');
    const active = await second.json<{ data: CustomerBody[] }>('GET', '/v3/customers?status=active');
    expect(active.body.data.map((c) => c.id)).toEqual([reviewing.id]);
    const hosted = new URL(session.body.session_url).pathname;
    const click = await second.app.request(hosted, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'outcome=approved',
    });
    expect(click.status).toBe(303);
    const after = (await second.json<CustomerBody>('GET', `/v3/customers/${capturing.id}`)).body;
    expect(Object.fromEntries(after.kyc.map((i) => [i.type, i.status]))).toMatchObject({
      selfie: 'approved',
      biometrics: 'approved',
    });
  });
});
