import { describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import { runCli, testServerForFile } from '../support/cli.js';

const server = testServerForFile();

const env = () => ({
  CREDIT_SANDBOX_URL: server.url,
  CREDIT_SANDBOX_CLIENT_ID: DEFAULT_CLIENT_ID,
  CREDIT_SANDBOX_CLIENT_SECRET: DEFAULT_CLIENT_SECRET,
});

describe('credit-sandbox faults (spawned CLI)', () => {
  it('adds, lists and clears rules; the rule acts on the API meanwhile', async () => {
    const added = await runCli(
      ['faults', 'add', 'GET', '/customers', '--status', '503', '--times', '2', '--json'],
      env(),
    );
    expect(added.code, added.stderr).toBe(0);
    const rule = JSON.parse(added.stdout) as { id: string; action: unknown; times_left: number };
    expect(rule).toMatchObject({ action: { status: 503 }, times_left: 2 });

    const ranged = await runCli(
      ['faults', 'add', '*', '/loans', '--delay', '100ms..2s', '--probability', '0.5'],
      env(),
    );
    expect(ranged.code, ranged.stderr).toBe(0);
    expect(ranged.stdout).toMatch(
      /^added flt_\S+ +\* +\/loans +\{"delay":\{"min":"100ms","max":"2s"\}\} +p=0.5/,
    );

    const listed = await runCli(['faults', 'list'], env());
    expect(listed.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(`^${rule.id} +GET +/customers +\\{"status":503\\} +2 more +\\(applied 0\\)$`),
      ),
      expect.stringMatching(/\/loans/),
    ]);

    const customers = await runCli(['customers', 'list'], env());
    expect(customers.code).toBe(1);
    expect(customers.stderr).toMatch(/503/);

    const one = await runCli(['faults', 'clear', rule.id], env());
    expect(one.stdout.trim()).toBe(`deleted ${rule.id}`);
    const all = await runCli(['faults', 'clear'], env());
    expect(all.stdout.trim()).toBe('deleted 1 fault rule');
    expect((await runCli(['faults', 'list'], env())).stdout.trim()).toBe('no fault rules');
  });

  it('says what is wrong: no action (usage, exit 2), an unknown path (the server suggests the template)', async () => {
    const bare = await runCli(['faults', 'add', 'GET', '/customers'], env());
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/name an action/);
    const typo = await runCli(['faults', 'add', 'POST', '/loan', '--status', '503'], env());
    expect(typo.code).toBe(1);
    expect(typo.stderr).toMatch(/did you mean "\/loans"/);
  });
});
