import { describe, expect, it } from 'vitest';
import { createTestSandbox, type TestSandbox } from '../support/sandbox.js';

async function rawPost(sandbox: TestSandbox, method: string, path: string, body: Buffer | string) {
  const res = await sandbox.app.request(path, {
    method,
    headers: { authorization: `Bearer ${await sandbox.token()}`, 'content-type': 'application/json' },
    body,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const withBytes = (before: string, raw: number[], after: string) =>
  Buffer.concat([Buffer.from(before), Buffer.from(raw), Buffer.from(after)]);

describe('JSON strings must be well-formed Unicode', () => {
  it('answers 400 naming the field for invalid UTF-8, and stores nothing', async () => {
    const sandbox = createTestSandbox();
    const res = await rawPost(
      sandbox,
      'POST',
      '/v3/customers',
      withBytes('{"cpf":"529.982.247-25","name":"Jo', [0xc3, 0x28], 'o"}'),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'validation_failed',
      param: 'name',
      errors: [{ param: 'name', code: 'invalid_text' }],
    });
    const list = await sandbox.json<{ data: unknown[] }>('GET', '/v3/customers');
    expect(list.body.data).toHaveLength(0);
  });

  it('answers 400 naming the field for a lone surrogate, on create and on update', async () => {
    const sandbox = createTestSandbox();
    const created = await rawPost(
      sandbox,
      'POST',
      '/v3/customers',
      '{"cpf":"529.982.247-25","name":"A\\ud800"}',
    );
    expect(created.status).toBe(400);
    expect(created.body).toMatchObject({ param: 'name', detail: expect.stringContaining('lone surrogate') });

    const ok = await sandbox.json<{ id: string }>('POST', '/v3/customers', {
      body: { cpf: '529.982.247-25' },
    });
    const patched = await rawPost(
      sandbox,
      'PATCH',
      `/v3/customers/${ok.body.id}`,
      '{"trading_name":"\\udfff"}',
    );
    expect(patched.status).toBe(400);
    expect(patched.body).toMatchObject({ param: 'trading_name' });

    const hook = await rawPost(
      sandbox,
      'POST',
      '/v3/webhooks/endpoints',
      '{"url":"https://example.com/h","events":["customer.*","\\ud83d"]}',
    );
    expect(hook.status).toBe(400);
    expect(hook.body).toMatchObject({ param: 'events.1' });
  });

  it('keeps accepting any well-formed text, accents and emoji included', async () => {
    const sandbox = createTestSandbox();
    const res = await rawPost(
      sandbox,
      'POST',
      '/v3/customers',
      '{"cpf":"529.982.247-25","name":"Conceição 😀","trading_name":"\\ud83d\\ude00 Ltda"}',
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Conceição 😀', trading_name: '😀 Ltda' });
  });
});
