import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.js';
import { journalPaths } from '../../src/store/journal/files.js';
import type { JournalPersistence } from '../../src/store/journal/journal-persistence.js';
import { type PartnerClient, partnerClient } from '../support/partner-client.js';
import { type CreatedPartner, createPartner, populate, rowsOf } from '../support/partners.js';
import { startQuietServer } from '../support/test-server.js';

/** A `--data` sandbox whose real time only moves when the test says so. */
function serveData(dataFile: string, time: { ms: number }): Promise<RunningServer> {
  return startQuietServer({ dataFile, realNow: () => time.ms });
}

function client(server: RunningServer, partner?: CreatedPartner): PartnerClient {
  const send = (path: string, init: RequestInit) => fetch(`${server.url}${path}`, init);
  return partner ? partnerClient(send, partner.client_id, partner.client_secret) : partnerClient(send);
}

async function code(res: Promise<Response>): Promise<string> {
  return ((await (await res).json()) as { code: string }).code;
}

describe('partner lifetimes with --data', () => {
  it('keeps a deleted or expired partner gone after a restart, and its credentials say why', async () => {
    const dataFile = join(mkdtempSync(join(tmpdir(), 'credit-sandbox-tenancy-')), 'data.json');
    const time = { ms: Date.parse('2026-03-02T12:00:00Z') };
    let server = await serveData(dataFile, time);
    const admin = client(server);
    const deleted = await createPartner(admin);
    const expiring = await createPartner(admin, { expires_in: 600 });
    const kept = await createPartner(admin, { expires_in: 86_400 });
    for (const partner of [deleted, expiring, kept]) await populate(client(server, partner));
    const tokens = {
      deleted: await client(server, deleted).token(),
      expiring: await client(server, expiring).token(),
    };
    expect((await admin.request('DELETE', `/v3/sandbox/partners/${deleted.id}`)).status).toBe(204);
    await server.close();

    // Ten minutes later (real time), the expiring partner's lifetime is over, before any sweep.
    time.ms += 600_000;
    server = await serveData(dataFile, time);
    const store = server.deps.store;
    expect(rowsOf(store, deleted.id)).toEqual({});
    expect(
      await code(client(server, deleted).request('GET', '/v3/customers', { token: tokens.deleted })),
    ).toBe('partner_deleted');
    await expect(client(server, deleted).token()).rejects.toThrow(/partner_deleted/);
    expect(
      await code(client(server, expiring).request('GET', '/v3/customers', { token: tokens.expiring })),
    ).toBe('partner_expired');
    expect(await server.sweeper.sweep()).toBe(1);
    expect(rowsOf(store, expiring.id)).toEqual({});
    const customers = await client(server, kept).json<{ data: unknown[] }>('GET', '/v3/customers');
    expect(customers.body.data).toHaveLength(1);
    await server.close();

    server = await serveData(dataFile, time);
    expect(rowsOf(server.deps.store, expiring.id)).toEqual({});
    await expect(client(server, expiring).token()).rejects.toThrow(/partner_expired/);
    expect(Object.keys(rowsOf(server.deps.store, kept.id))).toContain('customers');
    await server.close();
  });

  it('shrinks the journal and snapshot at the compaction after partners went', async () => {
    const dataFile = join(mkdtempSync(join(tmpdir(), 'credit-sandbox-tenancy-')), 'data.json');
    const time = { ms: Date.parse('2026-03-02T12:00:00Z') };
    const server = await serveData(dataFile, time);
    const admin = client(server);
    const partners: CreatedPartner[] = [];
    for (let i = 0; i < 12; i++) partners.push(await createPartner(admin, { expires_in: 60 }));
    for (const partner of partners) await populate(client(server, partner));
    const journal = server.deps.persistence as JournalPersistence;
    await journal.compact();
    const before = statSync(dataFile).size + statSync(journalPaths(dataFile).journal).size;
    time.ms += 60_000;
    expect(await server.sweeper.sweep()).toBe(12);
    await journal.compact();
    const after = statSync(dataFile).size + statSync(journalPaths(dataFile).journal).size;
    expect(after).toBeLessThan(before / 4);
    expect(statSync(journalPaths(dataFile).journal).size).toBe(0);
    await server.close();
  });
});
