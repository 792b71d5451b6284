import { describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import { runImportProperty } from '../support/bad-import.js';
import { type BadInputTarget, expectOtherPartnerWrites } from '../support/bad-input.js';
import { basic, createTestSandbox } from '../support/sandbox.js';
import { exportedWorld } from '../support/snapshot-imports.js';
import { acceptAll } from '../support/snapshots.js';

/** The import property of the bad-input suite in memory; test/postgres/bad-input.test.ts runs it with --database. */
async function target(): Promise<BadInputTarget> {
  const sandbox = createTestSandbox({}, { webhookSender: acceptAll });
  const other = await sandbox.json<{ client_id: string; client_secret: string }>(
    'POST',
    '/v3/sandbox/partners',
    {
      body: { name: 'other' },
    },
  );
  return {
    send: async (path, init) => sandbox.app.request(path, init),
    token: await sandbox.token(),
    basic: basic(DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET),
    otherToken: await sandbox.token(other.body.client_id, other.body.client_secret),
    otherBasic: basic(other.body.client_id, other.body.client_secret),
  };
}

describe('bad imports, in memory', () => {
  it('an edited export is imported and every read of it answers < 500, or refused keeping nothing (fast-check)', {
    timeout: 300_000,
  }, async () => {
    const into = await target();
    const counts = await runImportProperty(
      into,
      await exportedWorld(),
      Number(process.env.IMPORT_FUZZ_RUNS ?? 200),
    );
    // Both sides of the property ran: edits the checks accept (a name, a description) and refuse.
    expect(counts.imported).toBeGreaterThan(5);
    expect(counts.refused).toBeGreaterThan(50);
    await expectOtherPartnerWrites(into, 'the import property run');
  });
});
