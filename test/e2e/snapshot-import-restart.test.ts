import type { FileHandle } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PARTNER_ID } from '../../src/domain/default-partner.js';
import { generateCpf } from '../../src/finance/cpf.js';
import type { RunningServer } from '../../src/server.js';
import { tempDataFile } from '../../src/store/journal/test-helpers.js';
import type { CustomerRecord } from '../../src/store/records.js';
import { type PartnerClient, partnerClient } from '../support/partner-client.js';
import { edited, exportedWorld, firstRow, importRaw, type Send } from '../support/snapshot-imports.js';
import { startQuietServer } from '../support/test-server.js';

// Issue 40 with --data: an import is durable all or nothing, and a data file an older version
// wrote with an unchecked import (a poisoned counter, a null KYC item, a clock at the end of
// time) is repaired at the next start instead of ending the process or breaking other partners.
const open: RunningServer[] = [];
afterEach(async () => {
  for (const server of open.splice(0)) await server.close();
});

async function start(dataFile: string, errors: string[] = []) {
  const server = await startQuietServer({
    dataFile,
    log: { info: () => {}, error: (message, error) => errors.push(`${message} ${error ?? ''}`) },
  });
  open.push(server);
  const send: Send = (path, init) => fetch(`${server.url}${path}`, init);
  return { server, send, api: partnerClient(send) };
}

async function stop(server: RunningServer): Promise<void> {
  open.splice(open.indexOf(server), 1);
  await server.close();
}

async function allCustomerIds(client: PartnerClient): Promise<string[]> {
  const ids: string[] = [];
  let after = '';
  for (;;) {
    const page = await client.json<{ data: { id: string }[]; has_more: boolean }>(
      'GET',
      `/v3/customers?limit=4&order=asc${after}`,
    );
    expect(page.status).toBe(200);
    ids.push(...page.body.data.map((c) => c.id));
    if (!page.body.has_more) return ids;
    after = `&starting_after=${page.body.data.at(-1)?.id}`;
  }
}

describe('snapshot imports with --data', () => {
  it('a failed write of an import keeps nothing, also after a restart; a good one is kept renumbered', async () => {
    const dataFile = tempDataFile();
    const document = await exportedWorld();
    const one = await start(dataFile);
    const token = await one.api.token();
    expect((await one.api.json('POST', '/v3/customers', { body: { cpf: '52998224725' } })).status).toBe(201);
    const before = (await one.api.json('GET', '/v3/customers')).body;

    // The journal's next write fails (a full disk), once.
    const handle = (one.server.deps.persistence as unknown as { handle: FileHandle }).handle;
    const write = handle.write;
    handle.write = (() => {
      handle.write = write;
      return Promise.reject(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }));
    }) as FileHandle['write'];
    const refused = await importRaw(one.send, token, JSON.stringify(document));
    expect([refused.status, refused.body.code]).toEqual([503, 'storage_unavailable']);
    expect((await one.api.json('GET', '/v3/customers')).body).toEqual(before);
    expect((await one.api.json<{ data: unknown[] }>('GET', '/v3/sandbox/snapshots')).body.data).toEqual([]);
    // The disk has room again: the store writes once its probe passed (asked now, not waited for).
    expect(await one.server.deps.persistence.health.retry()).toBe(true);
    await stop(one.server);

    const two = await start(dataFile);
    expect((await two.api.json('GET', '/v3/customers')).body).toEqual(before);
    expect((await two.api.json<{ data: unknown[] }>('GET', '/v3/sandbox/snapshots')).body.data).toEqual([]);
    const huge = edited(document, (doc) => {
      for (const rows of Object.values(doc.tables)) for (const row of rows) row.seq = Number.MAX_SAFE_INTEGER;
    });
    expect((await importRaw(two.send, await two.api.token(), JSON.stringify(huge))).status).toBe(201);
    const imported = (await two.api.json('GET', '/v3/customers')).body;
    await stop(two.server);

    const three = await start(dataFile);
    expect((await three.api.json('GET', '/v3/customers')).body).toEqual(imported);
    expect(three.server.deps.store.meta.seq).toBeLessThan(1_000_000);
  });

  it('repairs a data file an older version wrote with a poisoned counter and unchecked rows', async () => {
    const dataFile = tempDataFile();
    const document = await exportedWorld();
    const one = await start(dataFile);
    const created = await one.api.json<{ client_id: string; client_secret: string; id: string }>(
      'POST',
      '/v3/sandbox/partners',
      { body: { name: 'other' } },
    );
    const store = one.server.deps.store;
    // What the old import let in: a null KYC item, seq 2^53 - 1, a clock at the end of time and a
    // snapshot holding the same; the counter then ran past MAX_SAFE_INTEGER, so the other
    // partner's next customers got equal numbers.
    const bad: Record<string, unknown> = {
      ...firstRow(document, 'customers'),
      partner_id: DEFAULT_PARTNER_ID,
      kyc: [null],
    };
    store.customers.insert({ ...bad, seq: Number.MAX_SAFE_INTEGER } as unknown as CustomerRecord);
    const partner = store.partners.get(DEFAULT_PARTNER_ID);
    if (!partner) throw new Error('no default partner');
    store.partners.replace({ ...partner, clock: { offset_ms: 0, frozen_at_ms: 8.64e15 } });
    const template = firstRow(document, 'customers') as unknown as CustomerRecord;
    for (let i = 0; i < 10; i++) {
      store.customers.insert({
        ...template,
        id: `cust_${String(i).padStart(32, 'a')}`,
        partner_id: created.body.id,
        cpf: generateCpf(String(200_000_000 + i)),
        seq: 2 ** 53 + 2 * Math.floor(i / 2),
        kyc: [],
        review_job_id: null,
        created_at: '2026-03-02T12:00:00.000Z',
      });
    }
    store.snapshots.insert({
      id: `${DEFAULT_PARTNER_ID} old`,
      seq: 2 ** 53 + 30,
      partner_id: DEFAULT_PARTNER_ID,
      name: 'old',
      saved_at: document.saved_at,
      bytes: 1000,
      world: { clock: document.clock, random_draws: null, tables: { customers: [bad as never] } },
    });
    store.meta.seq = 2 ** 53 + 40;
    // An older version never marked its file as checked.
    delete store.meta.rows_checked;
    await one.server.deps.persistence.flush();
    await stop(one.server);

    const errors: string[] = [];
    const two = await start(dataFile, errors);
    expect(errors.join('\n')).toMatch(/rows had insertion numbers past/);
    expect(errors.join('\n')).toMatch(/partner ptn_default's clock read outside/);
    expect(errors.join('\n')).toMatch(/ptn_default's world held rows .*kyc\.0.*emptied/);
    expect(errors.join('\n')).toMatch(/snapshot "old" of partner ptn_default was deleted/);
    expect(two.server.deps.store.meta.seq).toBeLessThan(1_000_000);
    for (let i = 0; i < 2; i++) {
      expect((await two.api.json('GET', '/v3/sandbox/clock')).status).toBe(200);
      expect((await two.api.json('GET', `/v3/customers/${String(bad.id)}`)).status).toBe(404);
    }
    const other = partnerClient(two.send, created.body.client_id, created.body.client_secret);
    const ids = await allCustomerIds(other);
    expect(ids).toEqual(Array.from({ length: 10 }, (_, i) => `cust_${String(i).padStart(32, 'a')}`));
    expect((await other.json('POST', '/v3/customers', { body: { cpf: '11144477735' } })).status).toBe(201);
    expect((await allCustomerIds(other)).at(-1)).not.toBe(ids.at(-1));
    await stop(two.server);

    // Checked once per data file: the next start has nothing to repair.
    const quiet: string[] = [];
    const three = await start(dataFile, quiet);
    expect(quiet).toEqual([]);
    expect(
      await allCustomerIds(partnerClient(three.send, created.body.client_id, created.body.client_secret)),
    ).toHaveLength(11);
  });
});
