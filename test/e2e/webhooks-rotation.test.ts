import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Persistence } from '../../src/store/persistence.js';
import { type Snapshot, Store } from '../../src/store/store.js';
import { MAX_PREVIOUS_SECRETS } from '../../src/store/webhook-records.js';
import { openJournal } from '../support/journal.js';
import type { TestSandbox } from '../support/sandbox.js';
import { type ReceivedWebhook, type Receiver, startReceiver, verify } from '../support/webhook-receiver.js';
import { advance, createEndpoint, emitEvent, webhookSandbox } from '../support/webhooks.js';

const receivers: Receiver[] = [];
const sandboxes: TestSandbox[] = [];

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

function sandbox(store?: Store, persistence?: Persistence): TestSandbox {
  const s = webhookSandbox({}, store, persistence);
  sandboxes.push(s);
  return s;
}

afterEach(async () => {
  for (const s of sandboxes.splice(0)) {
    s.deps.engine.stop();
    await s.deps.webhooks.close();
  }
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

interface Rotated {
  id: string;
  secret: string;
  previous_secret_expires_at: string;
}

async function rotate(sb: TestSandbox, id: string, expireCurrentIn: number) {
  return sb.json<Rotated>('POST', `/v3/webhooks/endpoints/${id}/secret/rotate`, {
    body: { expire_current_in: expireCurrentIn },
  });
}

/** Emits one event and returns the delivery the receiver got for it. */
async function deliverOne(sb: TestSandbox, rx: Receiver): Promise<ReceivedWebhook> {
  const before = rx.received.length;
  emitEvent(sb, 'customer.created');
  await sb.deps.webhooks.idle();
  expect(rx.received).toHaveLength(before + 1);
  return rx.received[before] as ReceivedWebhook;
}

/** Which of `secrets` verify the delivery with the `standardwebhooks` library. */
function verifiedBy(secrets: Record<string, string>, request: ReceivedWebhook): string[] {
  return Object.entries(secrets)
    .filter(([, secret]) => verify(secret, request).standardwebhooks)
    .map(([name]) => name);
}

describe('secret rotation: every previous secret keeps its own announced expiry', () => {
  it('signs with each secret still valid after two rotations in one grace period (standardwebhooks verifies each)', async () => {
    const sb = sandbox();
    const rx = await receiver();
    const ep = await createEndpoint(sb, { url: rx.url });
    // 12:00 rotate (s0 valid until 13:00), 12:10 rotate again (s1 valid until 14:10).
    const first = await rotate(sb, ep.id, 3600);
    expect(first.body.previous_secret_expires_at).toBe('2026-03-02T13:00:00.000Z');
    await advance(sb, '10m');
    const second = await rotate(sb, ep.id, 7200);
    expect(second.body.previous_secret_expires_at).toBe('2026-03-02T14:10:00.000Z');
    const secrets = { s0: ep.secret, s1: first.body.secret, s2: second.body.secret };

    const during = await deliverOne(sb, rx);
    expect(during.headers['webhook-signature']?.split(' ')).toHaveLength(3);
    expect(verifiedBy(secrets, during)).toEqual(['s0', 's1', 's2']);
    for (const secret of Object.values(secrets)) expect(verify(secret, during).manual).toBe(true);

    await advance(sb, '49m'); // 12:59: s0 still valid
    expect(verifiedBy(secrets, await deliverOne(sb, rx))).toEqual(['s0', 's1', 's2']);
    await advance(sb, '1m'); // 13:00: s0's announced expiry
    const afterFirst = await deliverOne(sb, rx);
    expect(afterFirst.headers['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(verifiedBy(secrets, afterFirst)).toEqual(['s1', 's2']);
    await advance(sb, '70m'); // 14:10: s1's announced expiry
    const afterBoth = await deliverOne(sb, rx);
    expect(afterBoth.headers['webhook-signature']?.split(' ')).toHaveLength(1);
    expect(verifiedBy(secrets, afterBoth)).toEqual(['s2']);
  });

  it('expire_current_in 0 drops only the current secret; earlier ones keep their expiry', async () => {
    const sb = sandbox();
    const rx = await receiver();
    const ep = await createEndpoint(sb, { url: rx.url });
    const first = await rotate(sb, ep.id, 3600);
    const second = await rotate(sb, ep.id, 0);
    expect(second.body.previous_secret_expires_at).toBe('2026-03-02T12:00:00.000Z');
    const secrets = { s0: ep.secret, s1: first.body.secret, s2: second.body.secret };
    expect(verifiedBy(secrets, await deliverOne(sb, rx))).toEqual(['s0', 's2']);
  });

  it(`keeps at most ${MAX_PREVIOUS_SECRETS} previous secrets: one more rotation with a grace period answers 422`, async () => {
    const sb = sandbox();
    const rx = await receiver();
    const ep = await createEndpoint(sb, { url: rx.url });
    const secrets: Record<string, string> = { s0: ep.secret };
    for (let i = 1; i <= MAX_PREVIOUS_SECRETS; i++) {
      const rotated = await rotate(sb, ep.id, 3600 + i - 1);
      expect(rotated.status).toBe(200);
      secrets[`s${i}`] = rotated.body.secret;
    }
    const refused = await rotate(sb, ep.id, 60);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'too_many_previous_secrets', param: 'expire_current_in' });
    expect((refused.body as unknown as { detail: string }).detail).toContain('2026-03-02T13:00:00.000Z');
    const delivered = await deliverOne(sb, rx);
    expect(delivered.headers['webhook-signature']?.split(' ')).toHaveLength(MAX_PREVIOUS_SECRETS + 1);
    expect(verifiedBy(secrets, delivered)).toHaveLength(MAX_PREVIOUS_SECRETS + 1);

    // Without a grace period nothing is added: allowed, and the current secret is gone at once.
    const zero = await rotate(sb, ep.id, 0);
    expect(zero.status).toBe(200);
    // Once the oldest previous secret has expired, a grace period fits again.
    await advance(sb, '1h');
    expect((await rotate(sb, ep.id, 60)).status).toBe(200);
  });

  it('keeps the previous secrets and their expiries across a restart (what --data holds)', async () => {
    const before = sandbox();
    const rx = await receiver();
    const ep = await createEndpoint(before, { url: rx.url });
    const first = await rotate(before, ep.id, 3600);
    const second = await rotate(before, ep.id, 7200);
    const snapshot = JSON.parse(JSON.stringify(before.deps.store.snapshot())) as Snapshot;
    before.deps.engine.stop();
    const store = new Store('restored');
    store.restore(snapshot);
    const after = sandbox(store);
    const secrets = { s0: ep.secret, s1: first.body.secret, s2: second.body.secret };
    expect(verifiedBy(secrets, await deliverOne(after, rx))).toEqual(['s0', 's1', 's2']);
    await advance(after, '1h');
    expect(verifiedBy(secrets, await deliverOne(after, rx))).toEqual(['s1', 's2']);
  });

  it('keeps them in the --data journal: a restart replays both rotations', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'credit-sandbox-rotation-')), 'sandbox.json');
    const store = new Store(Buffer.alloc(32, 7).toString('base64url'));
    const before = sandbox(store, await openJournal(path, store));
    const rx = await receiver();
    const ep = await createEndpoint(before, { url: rx.url });
    const first = await rotate(before, ep.id, 3600);
    const second = await rotate(before, ep.id, 7200);
    await before.deps.persistence.flush();
    before.deps.engine.stop();

    const replayed = new Store('replaced-by-the-journal');
    const after = sandbox(replayed, await openJournal(path, replayed));
    const secrets = { s0: ep.secret, s1: first.body.secret, s2: second.body.secret };
    expect(verifiedBy(secrets, await deliverOne(after, rx))).toEqual(['s0', 's1', 's2']);
  });

  it('reads an endpoint row written before several previous secrets were kept', async () => {
    const before = sandbox();
    const rx = await receiver();
    const ep = await createEndpoint(before, { url: rx.url });
    const first = await rotate(before, ep.id, 3600);
    const snapshot = JSON.parse(JSON.stringify(before.deps.store.snapshot())) as Snapshot;
    before.deps.engine.stop();
    // The row as the previous version wrote it: one previous secret in two fields.
    const rows = snapshot.tables.webhook_endpoints as Record<string, unknown>[];
    const { previous_secrets: _kept, ...row } = rows[0] as Record<string, unknown>;
    rows[0] = { ...row, previous_secret: ep.secret, previous_secret_expires_at: '2026-03-02T13:00:00.000Z' };
    const store = new Store('restored');
    store.restore(snapshot);
    const after = sandbox(store);
    const secrets = { s0: ep.secret, s1: first.body.secret };
    expect(verifiedBy(secrets, await deliverOne(after, rx))).toEqual(['s0', 's1']);
    const second = await rotate(after, ep.id, 7200);
    expect(verifiedBy({ ...secrets, s2: second.body.secret }, await deliverOne(after, rx))).toEqual([
      's0',
      's1',
      's2',
    ]);
  });

  it('exports them in a snapshot, and imports an export that an older version wrote (one previous secret)', async () => {
    const before = sandbox();
    const rx = await receiver();
    const ep = await createEndpoint(before, { url: rx.url });
    const first = await rotate(before, ep.id, 3600);
    const second = await rotate(before, ep.id, 7200);
    expect((await before.json('POST', '/v3/sandbox/snapshots', { body: { name: 'keys' } })).status).toBe(201);
    const exported = await before.request('GET', '/v3/sandbox/snapshots/keys/export');
    const document = (await exported.json()) as { tables: { webhook_endpoints: Record<string, unknown>[] } };
    const [row] = document.tables.webhook_endpoints;
    expect(row?.previous_secrets).toEqual([
      { secret: first.body.secret, expires_at: '2026-03-02T14:00:00.000Z' },
      { secret: ep.secret, expires_at: '2026-03-02T13:00:00.000Z' },
    ]);
    const importInto = async (target: TestSandbox, body: unknown) =>
      target.app.request('/v3/sandbox/snapshots/import', {
        method: 'POST',
        headers: { authorization: `Bearer ${await target.token()}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    const fresh = sandbox();
    expect((await importInto(fresh, document)).status).toBe(201);
    const secrets = { s0: ep.secret, s1: first.body.secret, s2: second.body.secret };
    expect(verifiedBy(secrets, await deliverOne(fresh, rx))).toEqual(['s0', 's1', 's2']);

    // The same endpoint as an older version exported it, after one rotation.
    const { previous_secrets: _list, ...rest } = row as Record<string, unknown>;
    const legacy = {
      ...rest,
      secret: first.body.secret,
      previous_secret: ep.secret,
      previous_secret_expires_at: '2026-03-02T13:00:00.000Z',
    };
    const older = sandbox();
    const imported = await importInto(older, {
      ...document,
      tables: { ...document.tables, webhook_endpoints: [legacy] },
    });
    expect(imported.status).toBe(201);
    expect(verifiedBy({ s0: ep.secret, s1: first.body.secret }, await deliverOne(older, rx))).toEqual([
      's0',
      's1',
    ]);
  });
});
