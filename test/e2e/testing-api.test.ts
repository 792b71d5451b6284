import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, SandboxApiError, ScenarioFailedError, startSandbox } from '../../src/testing/index.js';
import { FAILING_SCENARIO } from '../support/scenarios.js';

// The in-process test API (`credit-sandbox/testing`), over a real socket, as a user's suite uses it.
describe('startSandbox (credit-sandbox/testing)', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'testing-api-'));
    writeFileSync(join(dir, 'expect-wrong-status.yaml'), FAILING_SCENARIO);
    sandbox = await startSandbox({ seed: 'testing-api', startTime: '2026-03-02T12:00:00Z', scenarios: dir });
  });
  afterAll(async () => {
    await sandbox.stop();
  });

  it('listens on a loopback port with the documented credential, the clock frozen at startTime', async () => {
    expect(sandbox.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v3$/);
    expect(sandbox.url).toBe(sandbox.baseUrl.replace(/\/v3$/, ''));
    expect(sandbox.clientId).toBe('cid_sandbox_default');
    expect(await sandbox.token()).toMatch(/^svc_at_/);
    const clock = await sandbox.api<{ now: string; frozen: boolean }>('GET', '/sandbox/clock');
    expect(clock).toEqual({ now: '2026-03-02T12:00:00.000Z', frozen: true });
    expect((await fetch(`${sandbox.url}/healthz`)).status).toBe(200);
  });

  it('runs a scenario and answers what it captured; advance moves the clock and its jobs', async () => {
    const run = await sandbox.runScenario('loan-awaiting-signature', { amount: '2000.00' });
    const loan = run.captured.loan as { id: string; status: string };
    expect(loan.status).toBe('awaiting_signatures');
    await sandbox.api('POST', `/sandbox/loans/${loan.id}/sign`);
    const before = await sandbox.api<{ now: string }>('GET', '/sandbox/clock');
    const after = await sandbox.advance('1d');
    expect(Date.parse(after.now) - Date.parse(before.now)).toBe(86_400_000);
    expect((await sandbox.api<{ status: string }>('GET', `/loans/${loan.id}`)).status).toBe('active');
  });

  it('throws ScenarioFailedError with the run when a step fails, SandboxApiError for a refused call', async () => {
    const failed = await sandbox.runScenario('expect-wrong-status').catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ScenarioFailedError);
    expect((failed as ScenarioFailedError).run.failed_step?.name).toBe('the customer is still pending');
    const refused = await sandbox.api('GET', '/loans/ln_nope').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SandboxApiError);
    expect((refused as SandboxApiError).status).toBe(404);
    expect((refused as SandboxApiError).problem.code).toBe('resource_not_found');
  });

  it('adds, lists and clears API-side faults: the next matching call answers the fault', async () => {
    const rule = await sandbox.faults.add({
      match: { method: 'GET', path: '/customers' },
      action: { status: 503 },
      times: 1,
    });
    expect(rule.id).toBeTruthy();
    expect((await sandbox.faults.list()).map((r) => r.id)).toEqual([rule.id]);
    const faulted = await sandbox.api('GET', '/customers').catch((error: unknown) => error);
    expect((faulted as SandboxApiError).status).toBe(503);
    expect(await sandbox.api('GET', '/customers')).toHaveProperty('data');
    await sandbox.faults.add({ match: { method: 'GET', path: '/loans' }, action: { status: 500 }, times: 5 });
    await sandbox.faults.clear();
    expect(await sandbox.faults.list()).toEqual([]);
    expect(await sandbox.api('GET', '/loans')).toHaveProperty('data');
  });

  it('saves and restores snapshots, and a new sandbox starts from an exported one (snapshot option)', async () => {
    const { captured } = await sandbox.runScenario('active-customer');
    const customer = captured.customer as { id: string };
    await sandbox.snapshot('one-customer');
    await sandbox.reset();
    expect(
      (await sandbox.api('GET', `/customers/${customer.id}`).catch((e: SandboxApiError) => e)) instanceof
        SandboxApiError,
    ).toBe(true);
    await sandbox.restore('one-customer');
    expect((await sandbox.api<{ status: string }>('GET', `/customers/${customer.id}`)).status).toBe('active');
    const file = join(mkdtempSync(join(tmpdir(), 'testing-api-')), 'one-customer.json');
    writeFileSync(file, JSON.stringify(await sandbox.api('GET', '/sandbox/snapshots/one-customer/export')));
    const other = await startSandbox({ snapshot: file });
    try {
      expect((await other.api<{ status: string }>('GET', `/customers/${customer.id}`)).status).toBe('active');
    } finally {
      await other.stop();
    }
  });

  it('gives the same ids for the same seed: two sandboxes, one story', async () => {
    const runs = [];
    for (const _ of [1, 2]) {
      const other = await startSandbox({ seed: 'same-seed', startTime: new Date('2026-05-04T10:00:00Z') });
      try {
        runs.push(
          (await other.runScenario('active-customer')).captured.customer as { id: string; cpf: string },
        );
      } finally {
        await other.stop();
      }
    }
    expect(runs[0]).toEqual(runs[1]);
  });

  it('refuses a bad startTime and a broken scenario directory before listening', async () => {
    await expect(startSandbox({ startTime: 'yesterday' })).rejects.toThrow(/startTime must be a Date/);
    const dir = mkdtempSync(join(tmpdir(), 'testing-api-'));
    writeFileSync(join(dir, 'broken.yaml'), 'name: broken\n');
    await expect(startSandbox({ scenarios: dir })).rejects.toThrow(/broken\.yaml/);
  });

  it('stops: the port no longer answers, and a second stop is harmless', async () => {
    const other = await startSandbox();
    await other.stop();
    await other.stop();
    await expect(fetch(`${other.url}/healthz`)).rejects.toThrow();
  });
});
