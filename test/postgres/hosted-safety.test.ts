import { describe, expect, it } from 'vitest';
import { freshDatabase } from './support/database.js';
import { startInstance, stopInstance } from './support/fleet.js';
import { httpSandbox } from './support/http-sandbox.js';

describe('hosted safety in shared mode', () => {
  it('is on by default: webhooks only to public https addresses, quotas printed at start', async () => {
    const instance = await startInstance(await freshDatabase('safety_default'));
    try {
      const api = httpSandbox(() => instance.url);
      const res = await api.json<{ code: string }>('POST', '/v3/webhooks/endpoints', {
        body: { url: 'http://127.0.0.1:9/hooks' },
      });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('webhook_url_not_allowed');
      // The banner (printed right after the listening line) says so.
      expect(instance.output.join('\n')).toMatch(/hosted safety on/);
    } finally {
      await stopInstance(instance);
    }
  });

  it('can turn partner sign-up off, and hosted safety off for an internal team sandbox', async () => {
    const instance = await startInstance(await freshDatabase('safety_off'), [
      '--partner-signup',
      'off',
      '--hosted-safety',
      'off',
    ]);
    try {
      const api = httpSandbox(() => instance.url);
      const signup = await api.json<{ code: string }>('POST', '/v3/sandbox/partners', {
        body: { name: 'x' },
      });
      expect(signup.status).toBe(403);
      expect(signup.body.code).toBe('partner_signup_disabled');
      const hook = await api.json('POST', '/v3/webhooks/endpoints', {
        body: { url: 'http://127.0.0.1:9/hooks' },
      });
      expect(hook.status).toBe(201);
    } finally {
      await stopInstance(instance);
    }
  });
});
