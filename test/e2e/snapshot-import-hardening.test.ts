import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.js';
import { type PartnerClient, partnerClient } from '../support/partner-client.js';
import { edited, exportedWorld, firstRow, importRaw, type Send } from '../support/snapshot-imports.js';
import { startQuietServer } from '../support/test-server.js';

// Issue 40's findings 1, 2 and 5 on a real server, hot read path included: an imported world is
// untrusted input, and nothing in it may stop the process or move another partner's counter.
let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: Parameters<typeof startQuietServer>[0] = {}) {
  server = await startQuietServer(options);
  const url = server.url;
  const send: Send = (path, init) => fetch(`${url}${path}`, init);
  const api = partnerClient(send);
  const created = await api.json<{ client_id: string; client_secret: string }>(
    'POST',
    '/v3/sandbox/partners',
    {
      body: { name: 'other' },
    },
  );
  const other = partnerClient(send, created.body.client_id, created.body.client_secret);
  return { server, send, api, other, token: await api.token() };
}

/** The server still answers: /healthz, and another partner's write and read. */
async function expectServing(send: Send, other: PartnerClient, cpf: string): Promise<void> {
  expect((await send('/healthz', {})).status).toBe(200);
  const created = await other.json<{ id: string }>('POST', '/v3/customers', { body: { cpf } });
  expect(created.status).toBe(201);
  expect((await other.json('GET', `/v3/customers/${created.body.id}`)).status).toBe(200);
}

describe('an imported world is untrusted input (real server)', () => {
  it('refuses a KYC item that is null and a clock at the end of time; the two GETs after it answer and the process serves on', async () => {
    const { send, api, other, token } = await start();
    const document = await exportedWorld();
    const customerId = String(firstRow(document, 'customers').id);

    const nullKyc = edited(document, (doc) => {
      firstRow(doc, 'customers').kyc = [null];
    });
    const refused = await importRaw(send, token, JSON.stringify(nullKyc), { gzip: true });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'snapshot_invalid', param: 'tables.customers[0].kyc.0' });
    expect(String(refused.body.detail)).toContain(customerId);
    // The hot read path answers the same id twice (the second read used to end the process).
    for (let i = 0; i < 2; i++)
      expect((await api.json('GET', `/v3/customers/${customerId}`)).status).toBe(404);

    const endOfTime = edited(document, (doc) => {
      doc.clock = { now: '+275760-09-12T23:59:59.000Z', frozen: false };
    });
    const late = await importRaw(send, token, JSON.stringify(endOfTime), { gzip: true });
    expect(late.status).toBe(422);
    expect(late.body).toMatchObject({ code: 'snapshot_invalid', param: 'clock' });
    const lastDay = edited(document, (doc) => {
      doc.clock = { now: '9999-12-31T23:59:59.999Z', frozen: true };
    });
    expect((await importRaw(send, token, JSON.stringify(lastDay))).body).toMatchObject({
      code: 'snapshot_invalid',
      param: 'clock.now',
    });
    for (let i = 0; i < 2; i++) expect((await api.json('GET', '/v3/sandbox/clock')).status).toBe(200);
    expect((await api.json<{ data: unknown[] }>('GET', '/v3/sandbox/snapshots')).body.data).toEqual([]);
    await expectServing(send, other, '52998224725');

    // The document as exported is imported, and every GET of it answers.
    expect((await importRaw(send, token, JSON.stringify(document))).status).toBe(201);
    for (let i = 0; i < 2; i++)
      expect((await api.json('GET', `/v3/customers/${customerId}`)).status).toBe(200);
  });

  it('renumbers imported rows: a seq of 2^53 - 1 moves no counter another partner uses', async () => {
    const { send, server, other, token } = await start();
    const document = edited(await exportedWorld(), (doc) => {
      let n = 0;
      for (const rows of Object.values(doc.tables))
        for (const row of rows) row.seq = Number.MAX_SAFE_INTEGER - n++;
    });
    expect((await importRaw(send, token, JSON.stringify(document))).status).toBe(201);
    expect(server.deps.store.meta.seq).toBeLessThan(1_000_000);

    // Another partner's rows keep distinct numbers: 25 customers page through in order.
    const cpfs = Array.from({ length: 25 }, (_, i) => `${String(100_000_000 + i * 7919)}`);
    const { generateCpf } = await import('../../src/finance/cpf.js');
    for (const base of cpfs) {
      expect((await other.json('POST', '/v3/customers', { body: { cpf: generateCpf(base) } })).status).toBe(
        201,
      );
    }
    const seen: string[] = [];
    let after = '';
    for (;;) {
      const page = await other.json<{ data: { id: string }[]; has_more: boolean }>(
        'GET',
        `/v3/customers?limit=10&order=asc${after}`,
      );
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((c) => c.id));
      if (!page.body.has_more) break;
      after = `&starting_after=${page.body.data.at(-1)?.id}`;
    }
    expect(seen).toHaveLength(25);
    expect(new Set(seen).size).toBe(25);
  });

  it('answers 400 json_too_deep for deep nesting whatever the content type or encoding, and keeps nothing', async () => {
    const { send, api, other, token } = await start();
    for (const depth of [4_500, 100_000]) {
      const deep = `{"format":"credit-sandbox-snapshot","tables":${'['.repeat(depth)}${']'.repeat(depth)}}`;
      const ways: { gzip?: boolean; contentType?: string | null }[] = [
        { gzip: true },
        { gzip: true, contentType: null },
        { contentType: 'application/octet-stream' },
        { contentType: 'text/plain' },
        { contentType: null },
        { contentType: 'application/json' },
      ];
      for (const way of ways) {
        const res = await importRaw(send, token, deep, way);
        expect(res.status, `${depth} ${JSON.stringify(way)}`).toBe(400);
        expect(res.body.code).toBe('json_too_deep');
      }
    }
    expect((await api.json<{ data: unknown[] }>('GET', '/v3/sandbox/snapshots')).body.data).toEqual([]);
    await expectServing(send, other, '11144477735');
  });

  it('refuses NUL and lone surrogates (in any encoding) and, when hosted, webhook URLs the API refuses', async () => {
    const { send, token } = await start({
      safety: { webhookPublicOnly: true, partnerSignup: true, quotas: undefined },
    });
    const document = await exportedWorld();
    const nul = edited(document, (doc) => {
      firstRow(doc, 'customers').name = 'Maria\u0000';
    });
    const surrogate = edited(document, (doc) => {
      firstRow(doc, 'events').data = { ...(firstRow(doc, 'events').data as object), name: 'x\ud800' };
    });
    for (const [what, doc, param] of [
      ['NUL', nul, 'tables.customers[0].name'],
      ['lone surrogate', surrogate, 'tables.events[0].data.name'],
    ] as const) {
      const res = await importRaw(send, token, JSON.stringify(doc), { gzip: true });
      expect(res.status, what).toBe(422);
      expect(res.body, what).toMatchObject({ code: 'snapshot_invalid', param });
    }
    // The fixture's endpoint is http://127.0.0.1:9/hooks: refused when hosted, as on a create.
    const hosted = await importRaw(send, token, JSON.stringify(document));
    expect(hosted.status).toBe(422);
    expect(hosted.body).toMatchObject({ code: 'snapshot_invalid', param: 'tables.webhook_endpoints[0].url' });
    expect(String(hosted.body.detail)).toMatch(/hosted.*https/);
  });

  it('serve --snapshot refuses to start on a fixture with an unchecked row, naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'snapshot-fixture-'));
    const file = join(dir, 'bad.snapshot.json.gz');
    const bad = edited(await exportedWorld(), (doc) => {
      firstRow(doc, 'loans').total_loan_amount = 1063.56;
    });
    writeFileSync(file, gzipSync(JSON.stringify(bad)));
    await expect(startQuietServer({ snapshotFile: file })).rejects.toThrow(
      /--snapshot .*bad\.snapshot\.json\.gz: Row 0 of "loans" \(id "ln_\w+"\), field "total_loan_amount"/,
    );
  });
});
