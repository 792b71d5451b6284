import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FilePersistence } from '../../src/store/persistence.js';
import { Store } from '../../src/store/store.js';
import { createTestSandbox } from '../support/sandbox.js';

describe('restart with --data', () => {
  it('restores credentials, clocks, idempotency cache and signing key, so tokens stay valid', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'credit-sandbox-')), 'sandbox.json');
    const store = new Store(Buffer.alloc(32, 3).toString('base64url'));
    const first = createTestSandbox({}, { store, persistence: new FilePersistence(path, store) });
    const token = await first.token();
    const created = await first.request('POST', '/v3/auth/credentials', {
      token,
      body: { name: 'kept' },
      headers: { 'Idempotency-Key': 'restart-key' },
    });
    const createdBody = await created.text();
    await first.json('POST', '/v3/sandbox/clock/advance', { token, body: { by: '30m' } });

    const restoredStore = new Store('a-new-key-that-must-be-replaced');
    await new FilePersistence(path, restoredStore).load();
    const second = createTestSandbox(
      {},
      { store: restoredStore, persistence: new FilePersistence(path, restoredStore) },
    );
    const clock = await second.json<{ now: string; frozen: boolean }>('GET', '/v3/sandbox/clock', { token });
    expect(clock.status).toBe(200);
    expect(clock.body).toEqual({ now: '2026-03-02T12:30:00.000Z', frozen: true });
    const replay = await second.request('POST', '/v3/auth/credentials', {
      token,
      body: { name: 'kept' },
      headers: { 'Idempotency-Key': 'restart-key' },
    });
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await replay.text()).toBe(createdBody);
    const list = await second.json<{ data: { name: string }[] }>('GET', '/v3/auth/credentials', { token });
    expect(list.body.data.map((c) => c.name)).toEqual(['kept', 'default']);
  });
});
