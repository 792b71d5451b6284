import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  advance,
  type CustomerBody,
  createCustomer,
  customerEvents,
  fixture,
  upload,
} from '../support/customers.js';
import { createTestSandbox, newPartnerToken, type TestSandbox } from '../support/sandbox.js';

const MiB = 1024 * 1024;

/** Asserts a refused upload left nothing behind: same customer, no new event. */
async function expectUnchanged(sandbox: TestSandbox, before: CustomerBody, eventsBefore: number) {
  expect((await sandbox.json('GET', `/v3/customers/${before.id}`)).body).toEqual(before);
  expect(await customerEvents(sandbox)).toHaveLength(eventsBefore);
}

describe('POST /v3/customers/{id}/documents', () => {
  it('stores a document: 201, Location that resolves, metadata, item submitted', async () => {
    const sandbox = createTestSandbox();
    const customer = await createCustomer(sandbox);
    const bytes = fixture('sample.pdf');
    const res = await upload(sandbox, customer.id, 'identity_card_front', {
      bytes,
      filename: 'rg-front.pdf',
      contentType: 'application/pdf',
    });
    expect(res.status).toBe(201);
    const id = res.body.id as string;
    expect(res.headers.get('location')).toBe(`/v3/customers/${customer.id}/documents/${id}`);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^doc_[0-9a-f]{32}$/),
      customer_id: customer.id,
      type: 'identity_card_front',
      status: 'submitted',
      file: {
        name: 'rg-front.pdf',
        content_type: 'application/pdf',
        size: bytes.byteLength,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      },
      uploaded_at: '2026-03-02T12:00:00.000Z',
      created_at: '2026-03-02T12:00:00.000Z',
      updated_at: '2026-03-02T12:00:00.000Z',
    });
    const read = await sandbox.json('GET', res.headers.get('location') as string);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);

    await advance(sandbox, '5s');
    const reviewed = await sandbox.json('GET', res.headers.get('location') as string);
    expect(reviewed.body).toMatchObject({ status: 'approved', updated_at: '2026-03-02T12:00:05.000Z' });
  });

  it('reads the format from the leading bytes: a PNG named .pdf is a PNG, a JPEG is a JPEG', async () => {
    const sandbox = createTestSandbox();
    const customer = await createCustomer(sandbox);
    const png = await upload(sandbox, customer.id, 'identity_card_front', {
      bytes: fixture('sample.png'),
      filename: 'scan.pdf',
      contentType: 'application/pdf',
    });
    expect(png.status).toBe(201);
    expect(png.body.file).toMatchObject({ name: 'scan.pdf', content_type: 'image/png' });
    const jpeg = await upload(sandbox, customer.id, 'identity_card_back', {
      bytes: fixture('sample.jpg'),
      filename: 'back',
      contentType: 'application/octet-stream',
    });
    expect(jpeg.status).toBe(201);
    expect(jpeg.body.file).toMatchObject({ content_type: 'image/jpeg' });
  });

  it.each([
    ['a text file named .png', new TextEncoder().encode('this is not an image\n'), 'selfie.png', 'image/png'],
    ['a GIF', new TextEncoder().encode('GIF89a\x01\x00\x01\x00'), 'selfie.gif', 'image/gif'],
    ['HTML claiming PDF', new TextEncoder().encode('<html>%PDF-</html>'), 'x.pdf', 'application/pdf'],
  ])('refuses %s with 422 and stores nothing', async (_name, bytes, filename, contentType) => {
    const sandbox = createTestSandbox();
    const customer = await createCustomer(sandbox);
    const res = await upload(sandbox, customer.id, 'selfie', { bytes, filename, contentType });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'unsupported_file_type', param: 'file' });
    await expectUnchanged(sandbox, customer, 1);
  });

  it('refuses an empty file (422) and one over 10 MiB (422, the spec has no 413 here), storing nothing; exactly 10 MiB is accepted', async () => {
    const sandbox = createTestSandbox();
    const customer = await createCustomer(sandbox);
    const empty = await upload(sandbox, customer.id, 'selfie', { bytes: new Uint8Array(0) });
    expect(empty.status).toBe(422);
    expect(empty.body).toMatchObject({ code: 'empty_file', param: 'file' });

    const big = new Uint8Array(10 * MiB + 1);
    big.set(fixture('sample.png'));
    const tooBig = await upload(sandbox, customer.id, 'selfie', { bytes: big });
    expect(tooBig.status).toBe(422);
    expect(tooBig.body).toMatchObject({ code: 'file_too_large', param: 'file' });
    expect(String(tooBig.body.detail)).toContain('10485760');
    await expectUnchanged(sandbox, customer, 1);

    const limit = await upload(sandbox, customer.id, 'selfie', { bytes: big.subarray(0, 10 * MiB) });
    expect(limit.status).toBe(201);
    expect(limit.body.file).toMatchObject({ size: 10 * MiB });
  });

  it.each([
    ['ccmei for an individual', 'ccmei'],
    ['biometrics (captured, not uploaded)', 'biometrics'],
    ['an unknown type', 'cnh'],
  ])('refuses %s with 422 document_type_not_required', async (_name, type) => {
    const sandbox = createTestSandbox();
    const customer = await createCustomer(sandbox);
    const res = await upload(sandbox, customer.id, type);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'document_type_not_required', param: 'type' });
    await expectUnchanged(sandbox, customer, 1);
  });

  it('tells the client, in the item and in the refusal, that biometrics use the capture session', async () => {
    const sandbox = createTestSandbox();
    const customer = await createCustomer(sandbox);
    const item = customer.kyc.find((i) => i.type === 'biometrics');
    expect(item?.kind).toBe('document');
    expect(item?.description).toContain('not uploaded');
    expect(item?.description).toContain('POST /v3/customers/{id}/biometrics');
    const res = await upload(sandbox, customer.id, 'biometrics');
    expect(String(res.body.detail)).toContain('POST /v3/customers/{id}/biometrics');
  });

  it('refuses a data item type (a correction is made with PATCH)', async () => {
    const sandbox = createTestSandbox();
    const customer = await createCustomer(sandbox);
    await sandbox.json('POST', `/v3/sandbox/customers/${customer.id}/kyc/name/request-correction`);
    const res = await upload(sandbox, customer.id, 'name');
    expect(res.status).toBe(422);
    expect(String(res.body.detail)).toContain('PATCH');
  });

  it('answers 422 while the item is submitted or approved', async () => {
    const sandbox = createTestSandbox();
    const customer = await createCustomer(sandbox);
    expect((await upload(sandbox, customer.id, 'selfie')).status).toBe(201);
    const waiting = await upload(sandbox, customer.id, 'selfie');
    expect(waiting.status).toBe(422);
    expect(waiting.body).toMatchObject({ code: 'kyc_item_not_accepting' });
    await advance(sandbox, '5s');
    const approved = await upload(sandbox, customer.id, 'selfie');
    expect(approved.status).toBe(422);
    expect(String(approved.body.detail)).toContain('approved');
  });

  it('answers 400 for a missing type or file, or a file sent as text', async () => {
    const sandbox = createTestSandbox();
    const customer = await createCustomer(sandbox);
    const token = await sandbox.token();
    const send = (form: FormData) =>
      sandbox.app.request(`/v3/customers/${customer.id}/documents`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
    const noType = new FormData();
    noType.set('file', new File([fixture('sample.png')], 'a.png'));
    const noFile = new FormData();
    noFile.set('type', 'selfie');
    const textFile = new FormData();
    textFile.set('type', 'selfie');
    textFile.set('file', 'not a file part');
    for (const [form, param] of [
      [noType, 'type'],
      [noFile, 'file'],
      [textFile, 'file'],
    ] as const) {
      const res = await send(form);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: 'validation_failed', param });
    }
    const json = await sandbox.json('POST', `/v3/customers/${customer.id}/documents`, {
      body: { type: 'selfie', file: 'aGVsbG8=' },
    });
    // A JSON body: 400 (the spec's table for uploads has no 415), naming the header.
    expect(json.status).toBe(400);
    expect(json.body).toMatchObject({ code: 'unsupported_content_type', param: 'Content-Type' });
  });

  it('answers 404 for an unknown customer, another partner’s customer, or a document of another customer', async () => {
    const sandbox = createTestSandbox();
    const customer = await createCustomer(sandbox);
    const second = await createCustomer(sandbox, { cpf: '11144477735' });
    const doc = await upload(sandbox, customer.id, 'selfie');
    expect((await upload(sandbox, 'cust_00000000000000000000000000000000', 'selfie')).status).toBe(404);
    const other = await newPartnerToken(sandbox);
    expect((await upload(sandbox, customer.id, 'selfie', { token: other.token })).status).toBe(404);
    expect(
      (
        await sandbox.json('GET', `/v3/customers/${customer.id}/documents/${doc.body.id}`, {
          token: other.token,
        })
      ).status,
    ).toBe(404);
    expect((await sandbox.json('GET', `/v3/customers/${second.id}/documents/${doc.body.id}`)).status).toBe(
      404,
    );
    expect((await sandbox.json('GET', `/v3/customers/${customer.id}/documents/doc_unknown`)).status).toBe(
      404,
    );
  });

  it('replays an upload sent again with the same Idempotency-Key, storing one document', async () => {
    const sandbox = createTestSandbox();
    const customer = await createCustomer(sandbox);
    const headers = { 'idempotency-key': 'up-1' };
    const first = await upload(sandbox, customer.id, 'selfie', { headers });
    const again = await upload(sandbox, customer.id, 'selfie', { headers });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    const events = await customerEvents(sandbox);
    expect(events.map((e) => e.type)).toEqual(['customer.created', 'customer.kyc_updated']);
  });
});
