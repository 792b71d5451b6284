import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JournalPersistence } from '../../src/store/journal/journal-persistence.js';
import { Store } from '../../src/store/store.js';
import { advance, CPF, createCustomer, upload } from '../support/customers.js';
import { openJournal } from '../support/journal.js';
import { createTestSandbox, type TestSandbox } from '../support/sandbox.js';
import { type Receiver, startReceiver } from '../support/webhook-receiver.js';
import { createEndpoint, deliveries } from '../support/webhooks.js';

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

/** A sandbox journaling to a fresh `--data` file, and a way to see what a restart would load. */
async function journaledSandbox(): Promise<{ sandbox: TestSandbox; restartedWorld: () => Promise<unknown> }> {
  const path = join(mkdtempSync(join(tmpdir(), 'credit-sandbox-world-')), 'sandbox.json');
  const store = new Store(Buffer.alloc(32, 5).toString('base64url'));
  const journal = await openJournal(path, store);
  const sandbox = createTestSandbox({}, { store, persistence: journal });
  cleanup.push(async () => {
    sandbox.deps.engine.stop();
    await sandbox.deps.webhooks.close();
    await journal.close();
  });
  return {
    sandbox,
    restartedWorld: async () => {
      const restored = new Store('replaced-by-the-journal');
      const { persistence, report } = await JournalPersistence.open(path, restored);
      await persistence.close();
      expect(report.dropped).toEqual([]);
      return restored.snapshot();
    },
  };
}

describe('restart with --data (journal)', () => {
  it('restores the same world after every kind of change', async () => {
    const { sandbox, restartedWorld } = await journaledSandbox();
    const receiver: Receiver = await startReceiver(() => ({ status: 500 }));
    cleanup.push(() => receiver.close());
    const same = async (change: string) => {
      // Delivery outcomes are recorded and flushed in the background: compare at a quiet moment.
      await sandbox.deps.webhooks.idle();
      await sandbox.deps.persistence.flush();
      expect(await restartedWorld(), `after ${change}`).toEqual(sandbox.deps.store.snapshot());
    };

    const endpoint = await createEndpoint(sandbox, { url: receiver.url });
    await same('an insert (webhook endpoint)');

    const customer = await sandbox.json<{ id: string }>('POST', '/v3/customers', {
      body: { cpf: CPF.plain, name: 'Maria da Silva' },
      headers: { 'Idempotency-Key': 'journal-restart' },
    });
    expect(customer.status).toBe(201);
    await same('an insert with an idempotency entry and an event');

    const patched = await sandbox.json('PATCH', `/v3/customers/${customer.body.id}`, {
      body: { name: 'Maria' },
    });
    expect(patched.status).toBe(200);
    await same('an update');

    await sandbox.deps.webhooks.idle();
    expect((await deliveries(sandbox))[0]?.attempts[0]?.status_code).toBe(500);
    await same('a delivery outcome (a failed attempt and its retry job)');

    expect((await upload(sandbox, customer.body.id, 'selfie')).status).toBe(201);
    await advance(sandbox, '10s'); // the document review job runs
    const doc = (
      await sandbox.json<{ kyc: { type: string; status: string }[] }>(
        'GET',
        `/v3/customers/${customer.body.id}`,
      )
    ).body.kyc.find((item) => item.type === 'selfie');
    expect(doc?.status).toBe('approved');
    await same('a clock move that ran a timed job');

    expect((await sandbox.json('DELETE', `/v3/webhooks/endpoints/${endpoint.id}`)).status).toBe(200);
    await same('a delete');

    await createCustomer(sandbox, { cpf: CPF.other });
    expect((await sandbox.json('POST', '/v3/sandbox/reset')).status).toBe(200);
    await same('a reset (many deletes at once)');
  });
});
