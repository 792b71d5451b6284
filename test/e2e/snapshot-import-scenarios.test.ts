import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PARTNER_ID } from '../../src/domain/default-partner.js';
import { createTestSandbox } from '../support/sandbox.js';
import { RUNNABLE_SCENARIOS } from '../support/scenarios.js';
import { importRaw, sendTo } from '../support/snapshot-imports.js';
import { rowsWithoutSeq, worldRows } from '../support/snapshots.js';
import { type Receiver, startReceiver } from '../support/webhook-receiver.js';

// The import's schemas must accept every world the API writes: the world each shipped scenario
// leaves (KYC corrections and rejections, every loan end, overdue charges, payments, webhook
// chaos and failing receivers) exports and imports into a fresh sandbox unchanged.
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

const paramsFor = (name: string) =>
  name === 'webhook-receiver-down' || name === 'webhook-chaos' ? { receiver_url: receiver.url } : {};

describe('every world a shipped scenario leaves imports', () => {
  it.each(RUNNABLE_SCENARIOS)('%s', async (name) => {
    const source = createTestSandbox();
    const run = await source.json<{ status: string }>('POST', `/v3/sandbox/scenarios/${name}/runs`, {
      body: { params: paramsFor(name) },
    });
    expect(run.body.status).toBe('passed');
    await source.deps.webhooks.idle();
    expect((await source.json('POST', '/v3/sandbox/snapshots', { body: { name: 'after' } })).status).toBe(
      201,
    );
    const exported = await (await source.request('GET', '/v3/sandbox/snapshots/after/export')).text();

    const target = createTestSandbox();
    const imported = await importRaw(sendTo(target), await target.token(), exported);
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect(rowsWithoutSeq(worldRows(target.deps.store, DEFAULT_PARTNER_ID))).toEqual(
      rowsWithoutSeq(worldRows(source.deps.store, DEFAULT_PARTNER_ID)),
    );
  });
});
