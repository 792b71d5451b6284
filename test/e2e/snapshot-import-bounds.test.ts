import { describe, expect, it } from 'vitest';
import { CPF, createCustomer } from '../support/customers.js';
import { createTestSandbox, newPartnerToken } from '../support/sandbox.js';
import { exportedWorld, importRaw, sendTo } from '../support/snapshot-imports.js';
import { acceptAll } from '../support/snapshots.js';

// Issue 40, finding 4: the snapshot bytes an instance keeps for all its partners are bounded
// (`--max-snapshot-bytes-total`), and dates stay within what the API can reach.
describe('the instance bound of snapshot bytes', () => {
  it('refuses a save or an import past it with 507 snapshot_storage_full, keeping nothing', async () => {
    const document = await exportedWorld();
    const text = JSON.stringify(document);
    // Room for one copy of the fixture world, not two.
    const sandbox = createTestSandbox(
      { maxSnapshotBytesTotal: Math.round(text.length * 1.5) },
      { webhookSender: acceptAll },
    );
    const other = await newPartnerToken(sandbox);
    const token = await sandbox.token();
    expect((await importRaw(sendTo(sandbox), token, text)).status).toBe(201);
    const before = await sandbox.json('GET', '/v3/customers');

    // A second copy does not fit: refused, and the partner's world and snapshots stay as they were.
    await createCustomer(sandbox, { cpf: CPF.other });
    const after = await sandbox.json('GET', '/v3/customers');
    const second = await importRaw(sendTo(sandbox), token, text, { gzip: true, query: '?name=copy' });
    expect(second.status).toBe(507);
    expect(second.body).toMatchObject({ code: 'snapshot_storage_full', status: 507 });
    expect(String(second.body.detail)).toMatch(/--max-snapshot-bytes-total/);
    expect((await sandbox.json('GET', '/v3/customers')).body).toEqual(after.body);
    expect(after.body).not.toEqual(before.body);
    const list = await sandbox.json<{ data: { name: string }[] }>('GET', '/v3/sandbox/snapshots');
    expect(list.body.data.map((s) => s.name)).toEqual(['fixture']);
    expect((await sandbox.json('POST', '/v3/sandbox/snapshots', { body: { name: 'now' } })).status).toBe(507);

    // The bound is the instance's: another partner's small world still fits.
    await createCustomer(sandbox, { cpf: CPF.other }, other.token);
    const small = await sandbox.json('POST', '/v3/sandbox/snapshots', {
      body: { name: 'mine' },
      token: other.token,
    });
    expect(small.status).toBe(201);

    // Deleting makes room again.
    expect((await sandbox.json('DELETE', '/v3/sandbox/snapshots/fixture')).status).toBe(200);
    expect((await sandbox.json('POST', '/v3/sandbox/snapshots', { body: { name: 'again' } })).status).toBe(
      201,
    );
  });

  it('answers an import at once when the instance is full, before reading the document', async () => {
    const sandbox = createTestSandbox({ maxSnapshotBytesTotal: 1000 });
    await createCustomer(sandbox, { cpf: CPF.other });
    const full = await sandbox.json('POST', '/v3/sandbox/snapshots', { body: { name: 'big' } });
    expect(full.status).toBe(507);
    sandbox.deps.config.maxSnapshotBytesTotal = 4000;
    expect((await sandbox.json('POST', '/v3/sandbox/snapshots', { body: { name: 'fits' } })).status).toBe(
      201,
    );
    sandbox.deps.config.maxSnapshotBytesTotal = 1000;
    // Another partner (nothing of its own to replace): not even JSON, yet the refusal comes first.
    const other = await newPartnerToken(sandbox);
    const res = await importRaw(sendTo(sandbox), other.token, 'not a document');
    expect(res.status).toBe(507);
    // A document too big for the room left is refused before it is parsed (it is not JSON either).
    sandbox.deps.config.maxSnapshotBytesTotal = 10_000;
    const big = await importRaw(sendTo(sandbox), other.token, `[${'1,'.repeat(20_000)}`, { gzip: true });
    expect(big.status).toBe(507);
    expect(String(big.body.detail)).toMatch(/this document is 40001 bytes/);
  });
});

describe('the range of dates', () => {
  it('a clock never reads 9900 or later, so what it dates stays within year 9999', async () => {
    const sandbox = createTestSandbox({ startTimeMs: Date.parse('9899-06-01T00:00:00.000Z') });
    expect((await sandbox.json('POST', '/v3/sandbox/clock/advance', { body: { by: '30d' } })).status).toBe(
      200,
    );
    const late = await sandbox.json<{ code: string }>('POST', '/v3/sandbox/clock/advance', {
      body: { by: '365d' },
    });
    expect(late.status).toBe(422);
    expect(late.body.code).toBe('clock_jump_too_large');
  });
});
