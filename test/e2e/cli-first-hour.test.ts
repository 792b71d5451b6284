import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { offerTermsFor } from '../../src/domain/credit/offer-terms.js';
import { partnerEnvOn, runCli, testServerForFile } from '../support/cli.js';

// What a new user ran into in the first hour (issue 28), each through the spawned CLI against one
// sandbox on loopback; each test in its own partner.
const server = testServerForFile();
const partnerEnv = () => partnerEnvOn(server.url, 'first-hour');

describe('the first hour with the CLI', () => {
  it('trigger --set amount=5000 --set installments=6 works (the CPF is steered to a tier that takes it)', async () => {
    const res = await runCli(
      ['trigger', 'loan.created', '--set', 'amount=5000', '--set', 'installments=6', '--json'],
      await partnerEnv(),
    );
    expect(res.stderr).not.toContain('422');
    expect(res.code).toBe(0);
    const { event } = JSON.parse(res.stdout) as { event: { data: Record<string, unknown> } };
    expect(event.data).toMatchObject({ requested_amount: '5000.00', installments: 6 });
  });

  it('a refused client id says which one, where it came from, and which secret went with it', async () => {
    const res = await runCli(['clock', 'show'], {
      CREDIT_SANDBOX_URL: server.url,
      CREDIT_SANDBOX_CLIENT_ID: 'cid_x',
      CREDIT_SANDBOX_CLIENT_SECRET: '',
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('401 invalid_client');
    expect(res.stderr).toContain('client id cid_x (from CREDIT_SANDBOX_CLIENT_ID)');
    expect(res.stderr).toContain(
      "the default partner's secret (no --client-secret or CREDIT_SANDBOX_CLIENT_SECRET given)",
    );
    const flag = await runCli(
      ['clock', 'show', '--client-id', 'cid_y', '--client-secret', 'svc_cs_test_nope'],
      {
        CREDIT_SANDBOX_URL: server.url,
      },
    );
    expect(flag.stderr).toContain('client id cid_y (from --client-id) with the secret from --client-secret');
  });

  it('--url https:// against the plain-http sandbox says it speaks http', async () => {
    const https = server.url.replace(/^http:/, 'https:');
    const res = await runCli(['clock', 'show', '--url', https], await partnerEnv());
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`the sandbox speaks plain http. Use ${server.url} instead.`);
  });

  it('clock advance --to <date-time> moves the clock there', async () => {
    const env = await partnerEnv();
    const { now } = JSON.parse((await runCli(['clock', 'show', '--json'], env)).stdout) as { now: string };
    const to = new Date(Date.parse(now) + 10 * 86_400_000).toISOString();
    const res = await runCli(['clock', 'advance', '--to', to, '--json'], env);
    expect(res.code).toBe(0);
    expect((JSON.parse(res.stdout) as { now: string }).now).toBe(to);
  });

  it('an unknown --param names the params each scenario takes', async () => {
    const res = await runCli(['scenario', 'run', 'happy-path', '--param', 'colour=red'], await partnerEnv());
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/none of happy-path has a param "colour" \(happy-path takes [a-z_, ]*cpf/);
  });

  it('a second run of installment-due-on-holiday fails in one line with a reset hint; after reset --yes it passes', async () => {
    const env = await partnerEnv();
    expect((await runCli(['scenario', 'run', 'installment-due-on-holiday'], env)).code).toBe(0);
    const again = await runCli(['scenario', 'run', 'installment-due-on-holiday'], env);
    expect(again.code).toBe(1);
    const summary = again.stdout.split('\n').find((line) => line.startsWith('FAILED')) ?? '';
    expect(summary).toContain("this partner already has a customer with the scenario's CPF");
    expect(summary).toContain('credit-sandbox reset --yes');
    expect(summary).not.toContain('failed:');
    expect((await runCli(['reset', '--yes'], env)).code).toBe(0);
    expect((await runCli(['scenario', 'run', 'installment-due-on-holiday'], env)).code).toBe(0);
  });
});

it('scenario validate checks files without a server (docs/scenarios.md, "Your own scenarios")', async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'qa-')), 'qa', 'scenarios');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'two-steps.yaml'),
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the scenario's own interpolation
    'name: two-steps\ndescription: an active customer, then its offers\nsteps:\n  - name: a customer\n    include: active-customer\n  - name: its offers\n    request: { method: GET, path: "/v3/customers/${customer.id}/credit-offers" }\n',
  );
  const good = await runCli(['scenario', 'validate', join(dir, 'two-steps.yaml')], {
    CREDIT_SANDBOX_URL: 'http://127.0.0.1:9',
  });
  expect(good.stdout).toContain('✓');
  expect(good.code).toBe(0);
  writeFileSync(
    join(dir, 'broken.yaml'),
    'name: broken\nsteps:\n  - name: nowhere\n    include: no-such-scenario\n',
  );
  const bad = await runCli(['scenario', 'validate', join(dir, 'broken.yaml')], {
    CREDIT_SANDBOX_URL: 'http://127.0.0.1:9',
  });
  expect(bad.code).toBe(1);
  expect(bad.stdout).toContain('✗');
});

// The tier the steering relies on exists: amount 5000 with 6 installments is the plus tier's.
it('the plus tier takes 5000.00 in 6 installments', () => {
  const terms = offerTermsFor({ cpf: '00000000949', cnpj: null }, 'installment_range');
  expect(terms.tier).toBe('plus');
});
