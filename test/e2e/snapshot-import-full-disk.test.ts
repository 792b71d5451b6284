import { describe, expect, it } from 'vitest';
import { DEFAULT_PARTNER_ID } from '../../src/domain/default-partner.js';
import type { Store } from '../../src/store/store.js';
import { CPF, createCustomer } from '../support/customers.js';
import { fullDiskSandbox } from '../support/failing-disk.js';
import type { TestSandbox } from '../support/sandbox.js';
import { exportedWorld, importRaw, sendTo } from '../support/snapshot-imports.js';
import { acceptAll, apiPicture, worldRows } from '../support/snapshots.js';

// Issue 40: an import is all or nothing, also when the journal cannot write it (finding 6's
// rollback): a failed durable write of an import leaves the partner's world exactly as before.

/** Everything of the partner an import changes, as the store holds it. */
function storePicture(store: Store) {
  return {
    rows: worldRows(store, DEFAULT_PARTNER_ID),
    partner: store.partners.get(DEFAULT_PARTNER_ID),
    snapshots: [...store.snapshots.values()]
      .filter((row) => row.partner_id === DEFAULT_PARTNER_ID)
      .map((row) => ({ id: row.id, saved_at: row.saved_at, bytes: row.bytes })),
  };
}

async function picture(sandbox: TestSandbox, token: string) {
  return {
    store: storePicture(sandbox.deps.store),
    api: await apiPicture(sandbox, token),
    clock: sandbox.deps.engine.clockView(DEFAULT_PARTNER_ID),
  };
}

describe('an import the journal cannot write (--data on a full disk)', () => {
  it('answers storage_unavailable and leaves the world, clock and snapshot as they were, in memory and on disk', async () => {
    const document = await exportedWorld();
    const { sandbox, disk, journal, restarted } = await fullDiskSandbox({ webhookSender: acceptAll });
    await createCustomer(sandbox, { cpf: CPF.other });
    // A snapshot of the name the import replaces: it must be the one kept afterwards.
    expect((await sandbox.json('POST', '/v3/sandbox/snapshots', { body: { name: 'fixture' } })).status).toBe(
      201,
    );
    const token = await sandbox.token();
    const before = await picture(sandbox, token);
    const onDisk = storePicture(await restarted());
    expect(onDisk).toEqual(before.store);

    disk.failing = 'ENOSPC';
    const refused = await importRaw(sendTo(sandbox), token, JSON.stringify(document), {
      query: '?replace=true',
    });
    expect([refused.status, refused.body.code]).toEqual([503, 'storage_unavailable']);
    expect(String(refused.body.detail)).toMatch(/Nothing of this request was applied/);
    expect(await picture(sandbox, token)).toEqual(before);
    expect(storePicture(await restarted())).toEqual(onDisk);

    // Once the disk has room, the same document imports.
    disk.failing = null;
    expect(await journal.health.retry()).toBe(true);
    const imported = await importRaw(sendTo(sandbox), token, JSON.stringify(document), {
      query: '?replace=true',
    });
    expect(imported.status).toBe(201);
    const after = storePicture(await restarted());
    expect(after.rows.loans?.length).toBe(document.tables.loans?.length);
    expect(after).toEqual(storePicture(sandbox.deps.store));
  });
});
