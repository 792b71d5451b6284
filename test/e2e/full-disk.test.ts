import { describe, expect, it } from 'vitest';
import type { OutgoingWebhook } from '../../src/webhooks/sender.js';
import { CPF } from '../support/customers.js';
import { post, signIn } from '../support/dashboard-session.js';
import { fullDiskSandbox, until } from '../support/failing-disk.js';
import { createEndpoint } from '../support/webhooks.js';

interface Problem {
  code: string;
  status: number;
  detail: string;
}

const customerNames = (list: { data: { name: string }[] }) => list.data.map((c) => c.name).sort();

describe('--data on a disk that fills up (the journal cannot be written)', () => {
  it('refuses the write it cannot save, keeps nothing of it, says so once, and writes again once there is space', async () => {
    const sent: OutgoingWebhook[] = [];
    const { sandbox, disk, journal, logs, restarted } = await fullDiskSandbox({
      webhookSender: async (webhook) => {
        sent.push(webhook);
        return { statusCode: 200, body: '', retryAfter: null };
      },
    });
    await createEndpoint(sandbox, { url: 'https://receiver.test/hooks', events: ['customer.*'] });
    const kept = await sandbox.json('POST', '/v3/customers', { body: { cpf: CPF.plain, name: 'Kept' } });
    expect(kept.status).toBe(201);
    await sandbox.deps.webhooks.idle();
    expect(sent).toHaveLength(1);

    disk.failing = 'ENOSPC';
    const refused = await sandbox.json<Problem>('POST', '/v3/customers', {
      body: { cpf: CPF.other, name: 'Ghost' },
      headers: { 'Idempotency-Key': 'full-disk-1' },
    });
    // POST /customers is a row of the spec's status table: its only server error is 500.
    expect(refused.status).toBe(500);
    expect(refused.body.code).toBe('storage_unavailable');
    expect(refused.body.detail).toMatch(/disk is full \(ENOSPC\).*Nothing of this request was applied/);
    // Retry-After: when the next probe runs (every second by default; far off in this test).
    const retryAfter = String(journal.health.retryAfterSeconds);
    expect(refused.headers.get('retry-after')).toBe(retryAfter);

    // Not listed, not retrievable, no event, no webhook: the write did not happen.
    const list = await sandbox.json<{ data: { name: string }[] }>('GET', '/v3/customers');
    expect(customerNames(list.body)).toEqual(['Kept']);
    const events = await sandbox.json<{ data: { type: string }[] }>('GET', '/v3/sandbox/events');
    expect(events.body.data.filter((e) => e.type === 'customer.created')).toHaveLength(1);

    // While the disk is full every write is refused up front; outside the table with 503.
    const again = await sandbox.json<Problem>('POST', '/v3/customers', {
      body: { cpf: CPF.other, name: 'G2' },
    });
    expect([again.status, again.body.code]).toEqual([500, 'storage_unavailable']);
    const control = await sandbox.json<Problem>('POST', '/v3/sandbox/clock/advance', { body: { by: '1h' } });
    expect([control.status, control.body.code]).toEqual([503, 'storage_unavailable']);
    expect(control.headers.get('retry-after')).toBe(retryAfter);
    // A token writes nothing: clients still get one, to read with.
    expect(await sandbox.token()).toMatch(/^svc_at_/);
    // A dashboard action says why on the page it returns to (its API call answered 503).
    const { cookie, csrf } = await signIn(sandbox);
    const action = await post(sandbox, '/dashboard/faults/clear', cookie, { _csrf: csrf });
    expect(action.status).toBe(303);
    const flash = action.headers.getSetCookie().find((c) => c.startsWith('credit_sandbox_flash=')) ?? '';
    const page = await sandbox.app.request('/dashboard/faults', {
      headers: { cookie: `${cookie}; ${flash.split(';')[0]}` },
    });
    expect(await page.text()).toContain(
      'Storage unavailable: The sandbox cannot save changes right now: the disk is full',
    );
    // Reads keep working.
    expect((await sandbox.json('GET', `/v3/customers/${(kept.body as { id: string }).id}`)).status).toBe(200);

    const health = await sandbox.app.request('/healthz');
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({
      status: 'storage_unavailable',
      storage: { writable: false, reason: 'the disk is full (ENOSPC)' },
    });
    // Said once, however many writes were refused (and no stack trace per request).
    expect(logs.filter((line) => line.startsWith('error:'))).toEqual([
      expect.stringMatching(/^error: storage: cannot write \(the disk is full \(ENOSPC\)\)/),
    ]);

    // A probe while the disk is still full changes nothing; once freed, writes work again.
    expect(await journal.health.retry()).toBe(false);
    disk.failing = null;
    expect(await journal.health.retry()).toBe(true);
    expect(logs.filter((line) => line === 'storage: writes work again')).toHaveLength(1);
    expect((await sandbox.app.request('/healthz')).status).toBe(200);

    // The retry with the same Idempotency-Key is processed (no cached answer of the refused write).
    const retried = await sandbox.json<{ id: string }>('POST', '/v3/customers', {
      body: { cpf: CPF.other, name: 'Retried' },
      headers: { 'Idempotency-Key': 'full-disk-1' },
    });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    await sandbox.deps.webhooks.idle();
    expect(sent.map((w) => JSON.parse(w.body).data.name)).toEqual(['Kept', 'Retried']);

    // A restart loads exactly what was answered as written.
    const restored = await restarted();
    expect([...restored.customers.values()].map((c) => c.name).sort()).toEqual(['Kept', 'Retried']);
    expect(restored.idempotency.size).toBe(1);
  });

  it.each([
    ['EIO', 'the disk reported an I/O error (EIO)'],
    ['EACCES', 'the data files are not writable (EACCES)'],
  ])('answers storage_unavailable for any journal write error: %s', async (code, reason) => {
    const { sandbox, disk, restarted } = await fullDiskSandbox();
    disk.failing = code;
    const refused = await sandbox.json<Problem>('POST', '/v3/webhooks/endpoints', {
      body: { url: 'https://receiver.test/hooks', events: ['*'] },
    });
    expect([refused.status, refused.body.code]).toEqual([503, 'storage_unavailable']);
    expect(refused.body.detail).toContain(reason);
    expect((await sandbox.json<{ data: unknown[] }>('GET', '/v3/webhooks/endpoints')).body.data).toEqual([]);
    expect((await restarted()).webhookEndpoints.size).toBe(0);
  });

  it('fails every write of a group commit, and the next one waiting behind it, when one line cannot be written', async () => {
    const { sandbox, disk, restarted } = await fullDiskSandbox();
    expect((await sandbox.json('GET', '/v3/customers')).status).toBe(200); // the token, fetched now
    const customers = sandbox.deps.store.customers;
    const release = disk.hold();
    const first = sandbox.json<Problem>('POST', '/v3/customers', { body: { cpf: CPF.plain, name: 'A' } });
    await until(() => customers.size === 1); // its line is being written (held)
    const second = sandbox.json<Problem>('POST', '/v3/customers', { body: { cpf: CPF.other, name: 'B' } });
    await until(() => customers.size === 2); // it waits for the next line
    release('ENOSPC');
    const answers = await Promise.all([first, second]);
    expect(answers.map((a) => [a.status, a.body.code])).toEqual([
      [500, 'storage_unavailable'],
      [500, 'storage_unavailable'],
    ]);
    expect((await sandbox.json<{ data: unknown[] }>('GET', '/v3/customers')).body.data).toEqual([]);
    expect((await restarted()).customers.size).toBe(0);
  });
});
