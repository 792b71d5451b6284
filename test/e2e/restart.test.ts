import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CLIENT_ID,
  DEFAULT_CLIENT_SECRET,
  ensureDefaultPartner,
} from '../../src/domain/default-partner.js';
import { Store } from '../../src/store/store.js';
import { openJournal } from '../support/journal.js';
import { createTestSandbox } from '../support/sandbox.js';

describe('restart with --data', () => {
  it('restores credentials, clocks, idempotency cache and signing key, so tokens stay valid', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'credit-sandbox-')), 'sandbox.json');
    const store = new Store(Buffer.alloc(32, 3).toString('base64url'));
    const first = createTestSandbox({}, { store, persistence: await openJournal(path, store) });
    const token = await first.token();
    const created = await first.request('POST', '/v3/auth/credentials', {
      token,
      body: { name: 'kept' },
      headers: { 'Idempotency-Key': 'restart-key' },
    });
    const createdBody = await created.text();
    await first.json('POST', '/v3/sandbox/clock/advance', { token, body: { by: '30m' } });

    const restoredStore = new Store('a-new-key-that-must-be-replaced');
    const second = createTestSandbox(
      {},
      { store: restoredStore, persistence: await openJournal(path, restoredStore) },
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

describe('restart with --data and a different default credential', () => {
  // startServer restores the file, then calls ensureDefaultPartner with the credential configured now.
  it('makes the credential configured now (CREDIT_SANDBOX_CLIENT_ID/SECRET) work on the restored default partner', async () => {
    const sandbox = createTestSandbox(); // the file's first start: the well-known default credential
    const restart = (clientId: string, clientSecret: string) =>
      ensureDefaultPartner(sandbox.deps, { clientId, clientSecret }, 'frozen');

    restart('cid_from_env', 'svc_cs_test_env_secret');
    expect(sandbox.deps.store.partners.size).toBe(1);
    const fromEnv = await sandbox.token('cid_from_env', 'svc_cs_test_env_secret');
    const clock = await sandbox.json('GET', '/v3/sandbox/clock', { token: fromEnv });
    expect(clock.status).toBe(200);

    // Same id, changed secret: the configured secret wins.
    restart(DEFAULT_CLIENT_ID, 'svc_cs_test_changed_secret');
    await expect(sandbox.token(DEFAULT_CLIENT_ID, 'svc_cs_test_changed_secret')).resolves.toMatch(/^svc_at_/);
    await expect(sandbox.token(DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET)).rejects.toThrow(/401/);
  });
});
