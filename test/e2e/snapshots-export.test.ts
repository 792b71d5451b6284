import { gunzipSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PARTNER_ID } from '../../src/domain/default-partner.js';
import { CPF, createCustomer } from '../support/customers.js';
import { createTestSandbox, newPartnerToken, type TestSandbox } from '../support/sandbox.js';
import {
  acceptAll,
  apiPicture,
  buildWorld,
  rowsWithoutSeq,
  seqOrder,
  worldRows,
} from '../support/snapshots.js';

interface Document {
  format: string;
  version: number;
  partner: string;
  name: string;
  saved_at: string;
  clock: { now: string; frozen: boolean };
  random_draws: number | null;
  tables: Record<string, Record<string, unknown>[]>;
}

async function savedWorld(): Promise<{ sandbox: TestSandbox; document: Document; text: string }> {
  const sandbox = createTestSandbox({}, { webhookSender: acceptAll });
  await buildWorld(sandbox);
  expect((await sandbox.json('POST', '/v3/sandbox/snapshots', { body: { name: 'fixture' } })).status).toBe(
    201,
  );
  const res = await sandbox.request('GET', '/v3/sandbox/snapshots/fixture/export');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(res.headers.get('content-disposition')).toBe('attachment; filename="fixture.snapshot.json"');
  const text = await res.text();
  return { sandbox, document: JSON.parse(text) as Document, text };
}

async function importDocument(sandbox: TestSandbox, body: string | Uint8Array, query = '', token?: string) {
  const res = await sandbox.app.request(`/v3/sandbox/snapshots/import${query}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token ?? (await sandbox.token())}`,
      'content-type': typeof body === 'string' ? 'application/json' : 'application/gzip',
    },
    body,
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as Record<string, unknown> };
}

/** Rows of a partner as a partner-independent picture (partner ids and id prefixes named P). */
function rowsAs(sandbox: TestSandbox, partnerId: string): string {
  return JSON.stringify(rowsWithoutSeq(worldRows(sandbox.deps.store, partnerId))).replaceAll(partnerId, 'P');
}

/** An import renumbers rows with this sandbox's counter, in the order they had. */
function expectSameOrder(to: TestSandbox, toPartner: string, from: TestSandbox, fromPartner: string): void {
  expect(seqOrder(worldRows(to.deps.store, toPartner), toPartner)).toEqual(
    seqOrder(worldRows(from.deps.store, fromPartner), fromPartner),
  );
}

describe('snapshot export and import', () => {
  it('exports one versioned JSON document, gzip on request', async () => {
    const { sandbox, document, text } = await savedWorld();
    expect(document).toMatchObject({
      format: 'credit-sandbox-snapshot',
      version: 1,
      partner: DEFAULT_PARTNER_ID,
      name: 'fixture',
      clock: { frozen: true },
      random_draws: null,
    });
    expect(document.tables.loans).toHaveLength(1);
    expect(document.tables.credentials).toBeUndefined();

    const file = await sandbox.request('GET', '/v3/sandbox/snapshots/fixture/export?gzip=1');
    expect(file.headers.get('content-type')).toBe('application/gzip');
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="fixture.snapshot.json.gz"');
    expect(gunzipSync(Buffer.from(await file.arrayBuffer())).toString()).toBe(text);

    const wire = await sandbox.request('GET', '/v3/sandbox/snapshots/fixture/export', {
      headers: { 'Accept-Encoding': 'gzip, deflate' },
    });
    expect(wire.headers.get('content-encoding')).toBe('gzip');
    expect(wire.headers.get('vary')).toBe('Accept-Encoding');
    expect(gunzipSync(Buffer.from(await wire.arrayBuffer())).toString()).toBe(text);
  });

  it('imports into a fresh server: the same state, ids kept, and kept as a snapshot there', async () => {
    const { sandbox, text } = await savedWorld();
    const fresh = createTestSandbox({}, { webhookSender: acceptAll });
    const imported = await importDocument(fresh, gzipSync(text));
    expect(imported.status).toBe(201);
    expect(imported.body).toMatchObject({ snapshot: { name: 'fixture' }, abandoned_deliveries: 0 });
    expect(rowsAs(fresh, DEFAULT_PARTNER_ID)).toBe(rowsAs(sandbox, DEFAULT_PARTNER_ID));
    expectSameOrder(fresh, DEFAULT_PARTNER_ID, sandbox, DEFAULT_PARTNER_ID);
    expect(await apiPicture(fresh)).toEqual(await apiPicture(sandbox));
    // Kept there too, so a test suite restores it before each test.
    await createCustomer(fresh, { cpf: CPF.other });
    expect((await fresh.json('POST', '/v3/sandbox/snapshots/fixture/restore')).status).toBe(200);
    expect(await apiPicture(fresh)).toEqual(await apiPicture(sandbox));
  });

  it('imports into a fresh partner (rows move to it); ids another partner holds are refused', async () => {
    const { sandbox, text } = await savedWorld();
    const elsewhere = createTestSandbox({}, { webhookSender: acceptAll });
    const partner = await newPartnerToken(elsewhere);
    const imported = await importDocument(elsewhere, text, '?name=copy', partner.token);
    expect(imported.status).toBe(201);
    expect(rowsAs(elsewhere, partner.id)).toBe(rowsAs(sandbox, DEFAULT_PARTNER_ID));
    expectSameOrder(elsewhere, partner.id, sandbox, DEFAULT_PARTNER_ID);
    expect(await apiPicture(elsewhere, partner.token)).toEqual(await apiPicture(sandbox));
    const kept = await elsewhere.json('GET', '/v3/sandbox/snapshots/copy', { token: partner.token });
    expect(kept.status).toBe(200);

    // On the same server, the saving partner still holds those ids.
    const sibling = await newPartnerToken(sandbox);
    const refused = await importDocument(sandbox, text, '', sibling.token);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('snapshot_ids_taken');
    expect(worldRows(sandbox.deps.store, sibling.id)).toEqual(
      worldRows(createTestSandbox().deps.store, 'none'),
    );
    // Once the saving partner let go of them, the sibling may take them.
    expect((await sandbox.json('POST', '/v3/sandbox/reset')).status).toBe(200);
    expect((await importDocument(sandbox, text, '', sibling.token)).status).toBe(201);
    expect(await apiPicture(sandbox, sibling.token)).toMatchObject({
      '/v3/loans?limit=100': { data: [{ status: 'signed' }] },
    });
  });

  it('refuses a damaged or unknown-version document with 422 and changes nothing', async () => {
    const { document, text } = await savedWorld();
    const target = createTestSandbox();
    await createCustomer(target, { cpf: CPF.other });
    const before = worldRows(target.deps.store, DEFAULT_PARTNER_ID);
    const bad: [string, string | Uint8Array][] = [
      ['cut short', text.slice(0, text.length / 2)],
      ['gzip cut short', gzipSync(text).subarray(0, 200)],
      ['version 2', JSON.stringify({ ...document, version: 2 })],
      ['other format', JSON.stringify({ ...document, format: 'something-else' })],
      ['unknown table', JSON.stringify({ ...document, tables: { ...document.tables, partners: [] } })],
      [
        'row of another partner',
        JSON.stringify({
          ...document,
          tables: { ...document.tables, loans: [{ ...document.tables.loans?.[0], partner_id: 'ptn_x' }] },
        }),
      ],
      [
        'row missing a field',
        JSON.stringify({
          ...document,
          tables: { ...document.tables, customers: [{ ...document.tables.customers?.[0], kyc: undefined }] },
        }),
      ],
      ['not an object', '[1, 2, 3]'],
      ['empty', ''],
    ];
    for (const [what, body] of bad) {
      const res = await importDocument(target, body);
      expect(res.status, what).toBe(422);
      expect(res.body.code, what).toBe('snapshot_invalid');
      expect(String(res.body.detail), what).toMatch(/Nothing was imported/);
    }
    expect(worldRows(target.deps.store, DEFAULT_PARTNER_ID)).toEqual(before);
    expect((await target.json<{ data: unknown[] }>('GET', '/v3/sandbox/snapshots')).body.data).toEqual([]);
  });

  it('never answers 5xx or changes anything for arbitrary JSON or a document cut anywhere', async () => {
    const { text } = await savedWorld();
    const target = createTestSandbox();
    const before = worldRows(target.deps.store, DEFAULT_PARTNER_ID);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.jsonValue().map((value) => JSON.stringify(value) ?? 'null'),
          fc.nat(text.length - 1).map((n) => text.slice(0, n)),
        ),
        async (body) => {
          const res = await importDocument(target, body);
          expect(res.status).toBe(422);
        },
      ),
      { numRuns: 60 },
    );
    expect(worldRows(target.deps.store, DEFAULT_PARTNER_ID)).toEqual(before);
  });
});
