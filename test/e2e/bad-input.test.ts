import { describe, it } from 'vitest';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import { type BadInputTarget, runBadInputSuite, runHostileProperty } from '../support/bad-input.js';
import { basic, createTestSandbox } from '../support/sandbox.js';

/** The bad-input suite in memory; test/postgres/bad-input.test.ts runs it with --database. */
async function target(): Promise<BadInputTarget> {
  const sandbox = createTestSandbox();
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

describe('bad input, in memory', () => {
  it('answers each case with a 4xx problem, and another partner still writes after each', async () => {
    await runBadInputSuite(await target());
  });

  it('never answers 5xx on any documented operation with hostile text (fast-check)', async () => {
    await runHostileProperty(await target(), 300);
  });
});
