import { describe, expect, it } from 'vitest';
import { post, signIn } from '../support/dashboard-session.js';
import { createTestSandbox, type TestSandbox } from '../support/sandbox.js';

async function page(sb: TestSandbox, path: string, cookie: string): Promise<string> {
  const res = await sb.app.request(path, { headers: { cookie } });
  expect(res.status).toBe(200);
  return res.text();
}

describe('dashboard: fault rules', () => {
  it('lists the rules in force, deletes one, clears all (CSRF checked), and is itself never faulted', async () => {
    const sb = createTestSandbox();
    const add = (body: Record<string, unknown>) =>
      sb.json<{ id: string }>('POST', '/v3/sandbox/faults', { body });
    const first = (await add({ match: { method: 'GET', path: '/customers' }, action: { status: 503 } })).body;
    const second = (
      await add({ match: { method: 'POST', path: '/auth/token' }, action: { reset: true }, times: 2 })
    ).body;
    const { cookie, csrf } = await signIn(sb);
    expect(csrf).not.toBe('');

    const listed = await page(sb, '/dashboard/faults', cookie);
    expect(listed).toContain(`data-fault-rule="${first.id}"`);
    expect(listed).toContain(`data-fault-rule="${second.id}"`);
    expect(listed).toContain('2 more calls');
    expect(listed).toContain('Clear all fault rules');
    // The dashboard's own calls (its sign-in token, its customer list) go around the rules.
    expect(await page(sb, '/dashboard/customers', cookie)).not.toContain('service_unavailable');

    // A client's faulted call is marked in the request inspector.
    expect((await sb.json('GET', '/v3/customers')).status).toBe(503);
    expect(await page(sb, '/dashboard/requests', cookie)).toContain(`data-fault="${first.id}"`);

    const forged = await post(sb, '/dashboard/faults/delete', cookie, { id: first.id, _csrf: 'forged' });
    expect(forged.status).toBe(403);
    // No id names no rule (it must not become the collection's DELETE, which clears them all).
    expect((await post(sb, '/dashboard/faults/delete', cookie, { id: '', _csrf: csrf })).status).toBe(303);
    expect((await sb.json<{ data: unknown[] }>('GET', '/v3/sandbox/faults')).body.data).toHaveLength(2);
    const deleted = await post(sb, '/dashboard/faults/delete', cookie, { id: first.id, _csrf: csrf });
    expect(deleted.status).toBe(303);
    expect(deleted.headers.get('location')).toBe('/dashboard/faults');
    expect(await page(sb, '/dashboard/faults', cookie)).not.toContain(`data-fault-rule="${first.id}"`);

    expect((await post(sb, '/dashboard/faults/clear', cookie, { _csrf: 'forged' })).status).toBe(403);
    const cleared = await post(sb, '/dashboard/faults/clear', cookie, { _csrf: csrf });
    const flash = (
      cleared.headers.getSetCookie().find((c) => c.startsWith('credit_sandbox_flash=')) ?? ''
    ).split(';')[0];
    const after = await sb.app.request('/dashboard/faults', { headers: { cookie: `${cookie}; ${flash}` } });
    const text = await after.text();
    expect(text).toContain('1 fault rule cleared.');
    expect(text).toContain('No fault rules');
    expect((await sb.json<{ data: unknown[] }>('GET', '/v3/sandbox/faults')).body.data).toEqual([]);
  });
});
