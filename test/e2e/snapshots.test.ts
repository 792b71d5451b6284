import { describe, expect, it } from 'vitest';
import { DEFAULT_PARTNER_ID } from '../../src/domain/default-partner.js';
import { captureWorldTables, snapshotTableNames } from '../../src/store/partner-world.js';
import { isRowMeasured } from '../../src/store/row-sizes.js';
import { advanceClock } from '../support/credit.js';
import { CPF, createCustomer } from '../support/customers.js';
import { holdingReceiver } from '../support/holding-receiver.js';
import { createTestSandbox, newPartnerToken } from '../support/sandbox.js';
import { acceptAll, apiPicture, buildWorld, worldRows } from '../support/snapshots.js';
import { deliveries } from '../support/webhooks.js';

function sandboxWithWorld() {
  return createTestSandbox({}, { webhookSender: acceptAll });
}

describe('named snapshots', () => {
  it('hold every table of the partner world except credentials, partners, the request log and snapshots', () => {
    const sandbox = createTestSandbox();
    // A new store table must be placed on one side or the other (src/store/partner-world.ts).
    expect(snapshotTableNames(sandbox.deps.store)).toEqual([
      'idempotency',
      'events',
      'jobs',
      'customers',
      'documents',
      'biometrics_sessions',
      'webhook_endpoints',
      'webhook_deliveries',
      'credit_offers',
      'simulations',
      'loans',
      'transactions',
    ]);
  });

  it('measures the rows a partner writes while the event loop is idle, so a first save serialises nothing', async () => {
    const sandbox = sandboxWithWorld();
    await buildWorld(sandbox);
    const rows = Object.values(captureWorldTables(sandbox.deps.store, DEFAULT_PARTNER_ID)).flat();
    expect(rows.length).toBeGreaterThan(10);
    // Each drain measures a slice in a turn that follows spare time, and hands the loop back.
    await sandbox.deps.rowSizer?.whenDrained();
    expect(sandbox.deps.rowSizer).toBeDefined();
    expect(rows.filter((row) => !isRowMeasured(row))).toEqual([]);
  });

  it('save -> change everything -> restore puts back every object, clock, job, event and delivery', async () => {
    const sandbox = sandboxWithWorld();
    const store = sandbox.deps.store;
    const { loanId } = await buildWorld(sandbox);
    const rowsAtSave = worldRows(store, DEFAULT_PARTNER_ID);
    expect(rowsAtSave.jobs?.length).toBeGreaterThan(0);
    expect(rowsAtSave.webhook_deliveries?.length).toBeGreaterThan(0);
    expect(rowsAtSave.idempotency?.length).toBeGreaterThan(0);
    const pictureAtSave = await apiPicture(sandbox);

    const saved = await sandbox.json<Record<string, unknown>>('POST', '/v3/sandbox/snapshots', {
      body: { name: 'loan-signed' },
    });
    expect(saved.status).toBe(201);
    expect(saved.headers.get('location')).toBe('/v3/sandbox/snapshots/loan-signed');
    expect(saved.body).toMatchObject({
      name: 'loan-signed',
      saved_at: (pictureAtSave['/v3/sandbox/clock'] as { now: string }).now,
      clock: { frozen: true },
      random_draws: null,
    });
    expect((saved.body.counts as Record<string, number>).loans).toBe(1);

    // Change everything: jobs run (disbursed, active, installments), a customer more, the
    // endpoint gone, the clock running, the idempotency key used for something else.
    await advanceClock(sandbox, { by: '40d' });
    await sandbox.deps.webhooks.idle();
    await createCustomer(sandbox, { cpf: CPF.other });
    const endpoints = await sandbox.json<{ data: { id: string }[] }>('GET', '/v3/webhooks/endpoints');
    for (const endpoint of endpoints.body.data) {
      expect((await sandbox.json('DELETE', `/v3/webhooks/endpoints/${endpoint.id}`)).status).toBe(200);
    }
    expect((await sandbox.json('POST', '/v3/sandbox/clock/resume')).status).toBe(200);
    sandbox.realTime.tick(60_000);
    expect(await apiPicture(sandbox)).not.toEqual(pictureAtSave);

    const restored = await sandbox.json<Record<string, unknown>>(
      'POST',
      '/v3/sandbox/snapshots/loan-signed/restore',
    );
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({
      snapshot: { name: 'loan-signed' },
      clock: pictureAtSave['/v3/sandbox/clock'],
      abandoned_deliveries: 0,
    });
    expect(worldRows(store, DEFAULT_PARTNER_ID)).toEqual(rowsAtSave);
    expect(await apiPicture(sandbox)).toEqual(pictureAtSave);

    // The world runs on from there: the pending disbursement job still moves the loan.
    await advanceClock(sandbox, { by: '1h' });
    const loan = await sandbox.json<{ status: string }>('GET', `/v3/loans/${loanId}`);
    expect(loan.body.status).toBe('active');
    // The idempotency cache is the saved one: the key replays the saved endpoint.
    const replay = await sandbox.request('POST', '/v3/webhooks/endpoints', {
      body: { url: 'http://127.0.0.1:9/hooks', events: ['*'] },
      headers: { 'Idempotency-Key': 'endpoint-1' },
    });
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
  });

  it('restore sends no webhook, keeps the asking token and leaves other partners alone', async () => {
    const sandbox = sandboxWithWorld();
    await buildWorld(sandbox);
    const other = await newPartnerToken(sandbox);
    await createCustomer(sandbox, { cpf: CPF.plain }, other.token);
    const theirs = await apiPicture(sandbox, other.token);
    expect((await sandbox.json('POST', '/v3/sandbox/snapshots', { body: { name: 'a' } })).status).toBe(201);
    const deliveriesBefore = sandbox.deps.store.deliveries.size;
    const eventsBefore = sandbox.deps.store.events.size;
    expect((await sandbox.json('POST', '/v3/sandbox/snapshots/a/restore')).status).toBe(200);
    await sandbox.deps.webhooks.idle();
    expect(sandbox.deps.store.deliveries.size).toBe(deliveriesBefore);
    expect(sandbox.deps.store.events.size).toBe(eventsBefore);
    expect((await sandbox.json('GET', '/v3/customers')).status).toBe(200);
    expect(await apiPicture(sandbox, other.token)).toEqual(theirs);
  });

  it('lists, reads and deletes snapshots; names are checked; a taken name needs replace', async () => {
    const sandbox = createTestSandbox();
    expect((await sandbox.json('POST', '/v3/sandbox/snapshots', { body: { name: 'one' } })).status).toBe(201);
    await advanceClock(sandbox, { by: '1d' });
    expect(
      (await sandbox.json('POST', '/v3/sandbox/snapshots', { body: { name: 'two.v2_x-y' } })).status,
    ).toBe(201);
    const taken = await sandbox.json<{ code: string }>('POST', '/v3/sandbox/snapshots', {
      body: { name: 'one' },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('snapshot_exists');
    const replaced = await sandbox.json<{ saved_at: string }>('POST', '/v3/sandbox/snapshots', {
      body: { name: 'one', replace: true },
    });
    expect(replaced.status).toBe(201);
    expect(replaced.body.saved_at).toBe('2026-03-03T12:00:00.000Z');

    const list = await sandbox.json<{ data: { name: string }[]; has_more: boolean }>(
      'GET',
      '/v3/sandbox/snapshots',
    );
    expect(list.body).toMatchObject({ has_more: false });
    expect(list.body.data.map((s) => s.name)).toEqual(['one', 'two.v2_x-y']);
    expect((await sandbox.json('GET', '/v3/sandbox/snapshots/one')).status).toBe(200);

    for (const name of ['Upper', '-dash', 'a'.repeat(64), 'sp ace', '']) {
      const bad = await sandbox.json<{ code: string }>('POST', '/v3/sandbox/snapshots', { body: { name } });
      expect(bad.status, name).toBe(400);
    }
    const missing = await sandbox.json<{ code: string }>('POST', '/v3/sandbox/snapshots/nope/restore');
    expect(missing.status).toBe(404);
    expect((await sandbox.json('GET', '/v3/sandbox/snapshots/nope')).status).toBe(404);

    const deleted = await sandbox.json('DELETE', '/v3/sandbox/snapshots/one');
    expect(deleted).toMatchObject({ status: 200, body: { name: 'one', deleted: true } });
    expect((await sandbox.json('DELETE', '/v3/sandbox/snapshots/one')).status).toBe(404);

    // Another partner sees none of them; a reset keeps them.
    const other = await newPartnerToken(sandbox);
    const theirs = await sandbox.json<{ data: unknown[] }>('GET', '/v3/sandbox/snapshots', {
      token: other.token,
    });
    expect(theirs.body.data).toEqual([]);
    expect((await sandbox.json('POST', '/v3/sandbox/reset')).status).toBe(200);
    expect((await sandbox.json('GET', '/v3/sandbox/snapshots/two.v2_x-y')).status).toBe(200);
  });

  it('keeps at most 20 snapshots per partner', async () => {
    const sandbox = createTestSandbox();
    for (let i = 0; i < 20; i++) {
      expect((await sandbox.json('POST', '/v3/sandbox/snapshots', { body: { name: `s${i}` } })).status).toBe(
        201,
      );
    }
    const over = await sandbox.json<{ code: string }>('POST', '/v3/sandbox/snapshots', {
      body: { name: 's20' },
    });
    expect(over.status).toBe(422);
    expect(over.body.code).toBe('snapshot_limit_reached');
    // Replacing one of the twenty is fine.
    const again = await sandbox.json('POST', '/v3/sandbox/snapshots', {
      body: { name: 's3', replace: true },
    });
    expect(again.status).toBe(201);
  });
});

describe('snapshots and webhook deliveries in flight', () => {
  it('abandons attempts in flight at the restore and says so in the delivery log', async () => {
    const receiver = holdingReceiver();
    const sandbox = createTestSandbox({}, { webhookSender: receiver.send });
    await sandbox.json('POST', '/v3/webhooks/endpoints', { body: { url: 'http://127.0.0.1:9/hooks' } });
    expect((await sandbox.json('POST', '/v3/sandbox/snapshots', { body: { name: 'quiet' } })).status).toBe(
      201,
    );
    await createCustomer(sandbox, { cpf: CPF.plain });
    await receiver.nextArrival();
    const [inFlight] = await deliveries(sandbox);
    expect(inFlight?.status).toBe('sending');

    const restored = await sandbox.json<{ abandoned_deliveries: number }>(
      'POST',
      '/v3/sandbox/snapshots/quiet/restore',
    );
    expect(restored.body.abandoned_deliveries).toBe(1);
    for (const release of receiver.held.splice(0)) release();
    await sandbox.deps.webhooks.idle();
    const log = await deliveries(sandbox);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ id: inFlight?.id, status: 'cancelled' });
    expect(log[0]?.attempts).toHaveLength(1);
    expect(log[0]?.attempts[0]?.error).toMatch(
      /^abandoned: snapshot "quiet" was restored while this attempt was in flight; the receiver may have got it/,
    );
    // The customer of the abandoned world is gone; no event came of the restore.
    expect((await sandbox.json<{ data: unknown[] }>('GET', '/v3/customers')).body.data).toEqual([]);
    expect((await sandbox.json<{ data: unknown[] }>('GET', '/v3/sandbox/events')).body.data).toEqual([]);
  });

  it('sends again, at its due time, an attempt that was in flight when the snapshot was saved', async () => {
    const receiver = holdingReceiver();
    const sandbox = createTestSandbox({}, { webhookSender: receiver.send });
    await sandbox.json('POST', '/v3/webhooks/endpoints', { body: { url: 'http://127.0.0.1:9/hooks' } });
    await createCustomer(sandbox, { cpf: CPF.plain });
    await receiver.nextArrival();
    expect(
      (await sandbox.json('POST', '/v3/sandbox/snapshots', { body: { name: 'in-flight' } })).status,
    ).toBe(201);
    for (const release of receiver.held.splice(0)) release();
    await sandbox.deps.webhooks.idle();
    expect((await deliveries(sandbox))[0]?.status).toBe('succeeded');

    const restored = await sandbox.json<{ abandoned_deliveries: number }>(
      'POST',
      '/v3/sandbox/snapshots/in-flight/restore',
    );
    expect(restored.body.abandoned_deliveries).toBe(0);
    await receiver.nextArrival();
    expect((await deliveries(sandbox))[0]?.status).toBe('sending');
    for (const release of receiver.held.splice(0)) release();
    await sandbox.deps.webhooks.idle();
    const [again] = await deliveries(sandbox);
    expect(again?.status).toBe('succeeded');
    expect(again?.attempts.map((a) => a.status_code)).toEqual([200]);
  });
});
