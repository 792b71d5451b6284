import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Store } from '../../src/store/store.js';
import { openJournal } from '../support/journal.js';
import { createTestSandbox } from '../support/sandbox.js';

describe('fault rules with --data', () => {
  it('survive a restart with their count, and the inspector keeps the faulted exchange', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'credit-sandbox-faults-')), 'sandbox.json');
    const store = new Store(Buffer.alloc(32, 3).toString('base64url'));
    const first = createTestSandbox({}, { store, persistence: await openJournal(path, store) });
    const token = await first.token();
    const created = await first.json<{ id: string }>('POST', '/v3/sandbox/faults', {
      token,
      body: { match: { method: 'GET', path: '/customers' }, action: { status: 503 }, times: 3 },
    });
    expect((await first.json('GET', '/v3/customers', { token })).status).toBe(503);
    // The rule's count was durable before the 503 went out; the log entry of a read is written
    // within a second, or at shutdown, as here.
    await new Promise<void>((resolve) => setImmediate(resolve));
    await first.deps.persistence.flush();

    const restoredStore = new Store('a-new-key-that-must-be-replaced');
    const second = createTestSandbox(
      {},
      { store: restoredStore, persistence: await openJournal(path, restoredStore) },
    );
    const rules = await second.json<{ data: { id: string; times_left: number; applied: number }[] }>(
      'GET',
      '/v3/sandbox/faults',
      { token },
    );
    expect(rules.body.data).toEqual([
      expect.objectContaining({ id: created.body.id, times_left: 2, applied: 1 }),
    ]);
    expect((await second.json('GET', '/v3/customers', { token })).status).toBe(503);
    const log = await second.json<{ data: { status: number; fault: { rule_id: string } | null }[] }>(
      'GET',
      '/v3/sandbox/requests?path=/v3/customers',
      { token },
    );
    expect(log.body.data.map((r) => [r.status, r.fault?.rule_id])).toEqual([
      [503, created.body.id],
      [503, created.body.id],
    ]);
  });

  it('are cleared by a reset of the partner, like the rest of its world', async () => {
    const sandbox = createTestSandbox();
    await sandbox.json('POST', '/v3/sandbox/faults', {
      body: { match: { path: '/customers' }, action: { status: 503 } },
    });
    expect((await sandbox.json('POST', '/v3/sandbox/reset', { body: {} })).status).toBe(200);
    expect((await sandbox.json<{ data: unknown[] }>('GET', '/v3/sandbox/faults')).body.data).toEqual([]);
    expect((await sandbox.json('GET', '/v3/customers')).status).toBe(200);
  });
});
