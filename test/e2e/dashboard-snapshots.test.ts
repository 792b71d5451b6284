import { describe, expect, it } from 'vitest';
import { CPF, createCustomer } from '../support/customers.js';
import { post, signIn } from '../support/dashboard-session.js';
import { createTestSandbox, type TestSandbox } from '../support/sandbox.js';

/** Follows an action's redirect with its flash cookie and answers the page text. */
async function followAction(sb: TestSandbox, res: Response, cookie: string): Promise<string> {
  expect(res.status).toBe(303);
  const flash = (res.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const page = await sb.app.request(res.headers.get('location') ?? '', {
    headers: { cookie: `${cookie}; ${flash}` },
  });
  return page.text();
}

describe('dashboard snapshots page', () => {
  it('Save keeps the world under a name, Restore puts it back; both need the CSRF token', async () => {
    const sb = createTestSandbox();
    const { cookie, csrf } = await signIn(sb);
    const empty = await (await sb.app.request('/dashboard/snapshots', { headers: { cookie } })).text();
    expect(empty).toContain('No snapshots yet.');
    expect(empty).toContain('href="/dashboard/snapshots" aria-current="page"');

    await createCustomer(sb, { cpf: CPF.plain });
    const saved = await followAction(
      sb,
      await post(sb, '/dashboard/snapshots', cookie, { _csrf: csrf, name: 'one' }),
      cookie,
    );
    expect(saved).toContain('Snapshot one saved.');
    expect(saved).toContain('data-snapshot="one"');
    expect(saved).toContain('1 customers');

    await createCustomer(sb, { cpf: CPF.other });
    const restored = await followAction(
      sb,
      await post(sb, '/dashboard/snapshots/one/restore', cookie, { _csrf: csrf }),
      cookie,
    );
    expect(restored).toContain('Snapshot one restored.');
    const customers = await sb.json<{ data: unknown[] }>('GET', '/v3/customers');
    expect(customers.body.data).toHaveLength(1);

    const taken = await followAction(
      sb,
      await post(sb, '/dashboard/snapshots', cookie, { _csrf: csrf, name: 'one' }),
      cookie,
    );
    expect(taken).toContain('Snapshot name taken');
    const replaced = await followAction(
      sb,
      await post(sb, '/dashboard/snapshots', cookie, { _csrf: csrf, name: 'one', replace: 'true' }),
      cookie,
    );
    expect(replaced).toContain('Snapshot one saved.');
    const missing = await followAction(
      sb,
      await post(sb, '/dashboard/snapshots/nope/restore', cookie, { _csrf: csrf }),
      cookie,
    );
    expect(missing).toContain('No snapshot named &quot;nope&quot;');

    for (const path of ['/dashboard/snapshots', '/dashboard/snapshots/one/restore']) {
      const forged = await post(sb, path, cookie, { name: 'forged' });
      expect(forged.status, path).toBe(403);
    }
    const list = await sb.json<{ data: { name: string }[] }>('GET', '/v3/sandbox/snapshots');
    expect(list.body.data.map((s) => s.name)).toEqual(['one']);
  });
});
