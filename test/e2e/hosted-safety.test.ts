import { describe, expect, it } from 'vitest';
import { generateCpf } from '../../src/finance/cpf.js';
import { createUndiciSender } from '../../src/webhooks/sender.js';
import { CPF, createCustomer } from '../support/customers.js';
import { createTestSandbox } from '../support/sandbox.js';

const hosted = { webhookPublicOnly: true, partnerSignup: true, quotas: { customers: 2, eventsKept: 3 } };

describe('hosted safety', () => {
  it('refuses webhook urls that are not https or name a non-public address, saying why', async () => {
    const sandbox = createTestSandbox({ ...hosted, webhookHttpHosts: ['app'] });
    for (const url of [
      'http://example.com/hooks',
      'http://127.0.0.1:3000/hooks',
      'http://app/hooks',
      'https://localhost/hooks',
      'https://127.0.0.1/hooks',
      'https://10.0.0.5/hooks',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hooks',
      'https://[fd00:ec2::254]/hooks',
      // IPv6 forms that carry a non-public IPv4 address: compatible, mapped, NAT64, 6to4.
      'https://[::127.0.0.1]:19443/',
      'https://[::ffff:127.0.0.1]/hooks',
      'https://[::ffff:a9fe:a9fe]/hooks',
      'https://[64:ff9b::10.0.0.1]/hooks',
      'https://[2002:7f00:1::1]/hooks',
    ]) {
      const res = await sandbox.json<{ code: string; detail: string }>('POST', '/v3/webhooks/endpoints', {
        body: { url },
      });
      expect(res.status, url).toBe(422);
      expect(res.body.code).toBe('webhook_url_not_allowed');
      expect(res.body.detail).toMatch(/public/);
    }
    const ok = await sandbox.json('POST', '/v3/webhooks/endpoints', {
      body: { url: 'https://hooks.example.com/x' },
    });
    expect(ok.status).toBe(201);
  });

  it('keeps loopback http allowed when off (a developer machine)', async () => {
    const sandbox = createTestSandbox();
    const res = await sandbox.json('POST', '/v3/webhooks/endpoints', {
      body: { url: 'http://127.0.0.1:3000/hooks' },
    });
    expect(res.status).toBe(201);
  });

  it('refuses at connect time a name that resolves to a private address', async () => {
    const sender = createUndiciSender({ publicOnly: true });
    const attempt = sender.send({
      url: 'https://localhost:1/hooks',
      headers: {},
      body: '{}',
      signal: AbortSignal.timeout(5000),
    });
    await expect(attempt).rejects.toThrow(/not a public address/);
    await expect(
      sender.send({
        url: 'https://127.0.0.1:1/x',
        headers: {},
        body: '{}',
        signal: AbortSignal.timeout(5000),
      }),
    ).rejects.toThrow(/not a public address/);
    await sender.close();
  });

  it('answers 422 quota_exceeded past the customer quota', async () => {
    const sandbox = createTestSandbox(hosted);
    await createCustomer(sandbox, { cpf: CPF.plain });
    await createCustomer(sandbox, { cpf: generateCpf('111444777') });
    const third = await sandbox.json<{ code: string; detail: string }>('POST', '/v3/customers', {
      body: { cpf: generateCpf('222555888'), name: 'Três' },
    });
    expect(third.status).toBe(422);
    expect(third.body.code).toBe('quota_exceeded');
    expect(third.body.detail).toMatch(/2 customers/);
  });

  it('keeps only the newest events of a partner within the quota', async () => {
    const sandbox = createTestSandbox({ ...hosted, quotas: { customers: 10, eventsKept: 3 } });
    const ids: string[] = [];
    for (const base of ['111444777', '222555888', '333666999', '444777000', '555888111']) {
      ids.push((await createCustomer(sandbox, { cpf: generateCpf(base) })).id);
    }
    const events = await sandbox.json<{ data: { type: string; data: { id: string } }[] }>(
      'GET',
      '/v3/sandbox/events?type=customer.created&limit=100',
    );
    // Newest first: the three last customers' creation events remain.
    expect(events.body.data.map((e) => e.data.id)).toEqual(ids.slice(2).reverse());
  });

  it('turns partner sign-up off with 403 partner_signup_disabled', async () => {
    const sandbox = createTestSandbox({ partnerSignup: false });
    const res = await sandbox.json<{ code: string }>('POST', '/v3/sandbox/partners', { body: { name: 'x' } });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('partner_signup_disabled');
  });
});
