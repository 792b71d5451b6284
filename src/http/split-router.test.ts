import { RegExpRouter } from 'hono/router/reg-exp-router';
import { describe, expect, it } from 'vitest';
import { createTestSandbox } from '../../test/support/sandbox.js';
import { KYC_CONTROL_PREFIX, SNAPSHOT_PREFIX } from '../app.js';

describe('routing', () => {
  it('keeps every route outside the KYC control and snapshot prefixes in a RegExpRouter (the fast one)', () => {
    const sandbox = createTestSandbox();
    const routes = (sandbox.app as unknown as { routes: { method: string; path: string }[] }).routes;
    const fast = new RegExpRouter<number>();
    // Adding a route Hono's RegExpRouter cannot hold throws here; the fix is usually to give a
    // path parameter the same name in every route and middleware at that position.
    for (const [i, r] of routes.entries()) {
      if (!r.path.startsWith(KYC_CONTROL_PREFIX) && !r.path.startsWith(SNAPSHOT_PREFIX))
        fast.add(r.method, r.path, i);
    }
    expect(() => fast.match('GET', '/v3/sandbox/clock')).not.toThrow();
  });

  it('routes requests on both sides of the split with their middleware', async () => {
    const sandbox = createTestSandbox();
    expect((await sandbox.request('GET', '/v3/sandbox/clock')).status).toBe(200);
    const kyc = await sandbox.json('POST', '/v3/sandbox/customers/cust_missing/kyc/approve');
    expect(kyc.status).toBe(404);
    expect(kyc.body).toMatchObject({ code: 'resource_not_found' });
    expect(
      (await sandbox.request('POST', '/v3/sandbox/customers/cust_missing/kyc/approve', { token: null }))
        .status,
    ).toBe(401);
  });
});
