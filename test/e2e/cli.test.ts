import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.js';
import { exitOf, partnerEnvOn, runCli, spawnCli, startTestServer, waitForLine } from '../support/cli.js';
import { FAILING_SCENARIO, RUNNABLE_SCENARIOS } from '../support/scenarios.js';
import { WAIT_LIMIT_S } from '../support/time-limits.js';
import { type Receiver, startReceiver } from '../support/webhook-receiver.js';

// One sandbox server on loopback for every CLI process of this file.
let server: RunningServer;
let receiver: Receiver;
let env: Record<string, string>;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'qa-scenarios-'));
  writeFileSync(join(dir, 'expect-wrong-status.yaml'), FAILING_SCENARIO);
  server = await startTestServer([dir]);
  receiver = await startReceiver();
  env = { CREDIT_SANDBOX_URL: server.url, CREDIT_SANDBOX_CLIENT_ID: '', CREDIT_SANDBOX_CLIENT_SECRET: '' };
});
afterAll(async () => {
  await receiver.close();
  await server.close();
});

/** A fresh isolated partner's credential, as env for the CLI (made over HTTP: spawns are slow). */
const partnerEnv = () => partnerEnvOn(server.url, 'cli-test');

interface RunResult {
  scenario: string;
  status: string;
  failed_step?: { index: number; name: string; detail: string };
  steps: { status: string }[];
}

describe('credit-sandbox CLI (spawned, against a server on 127.0.0.1)', () => {
  it('runs every shipped scenario green, in one process', async () => {
    const res = await runCli(
      ['scenario', 'run', ...RUNNABLE_SCENARIOS, '--param', `receiver_url=${receiver.url}`, '--json'],
      await partnerEnv(),
    );
    expect(res.stderr).toContain(`running scenario happy-path (1/${RUNNABLE_SCENARIOS.length})…`);
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout) as { status: string; runs: RunResult[] };
    expect(out.runs.map((run) => [run.scenario, run.status, run.failed_step])).toEqual(
      RUNNABLE_SCENARIOS.map((name) => [name, 'passed', undefined]),
    );
    expect(out.status).toBe('passed');
  });

  it('prints each step and exits 1 when an expectation fails', async () => {
    const res = await runCli(['scenario', 'run', 'expect-wrong-status'], await partnerEnv());
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('✓  1 include active-customer');
    expect(res.stdout).toContain('✗  2 the customer is still pending');
    expect(res.stdout).toContain('-  3 never runs (skipped)');
    expect(res.stdout).toContain(
      'FAILED expect-wrong-status at step 2 ("the customer is still pending"): expected customer.status == pending_kyc, but customer.status is "active"',
    );

    const json = await runCli(['scenario', 'run', 'expect-wrong-status', '--json'], await partnerEnv());
    expect(json.code).toBe(1);
    const out = JSON.parse(json.stdout) as { status: string; runs: RunResult[] };
    expect(out.status).toBe('failed');
    expect(out.runs[0]?.failed_step).toEqual({
      index: 2,
      name: 'the customer is still pending',
      detail: 'expected customer.status == pending_kyc, but customer.status is "active"',
    });
  });

  it('exits 2 on usage errors, naming the problem', async () => {
    const unknownCommand = await runCli(['frobnicate'], env);
    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.stderr).toContain("unknown command 'frobnicate'");

    const unknownScenario = await runCli(['scenario', 'run', 'happy-pat'], env);
    expect(unknownScenario.code).toBe(2);
    expect(unknownScenario.stderr).toMatch(
      /Unknown scenario "happy-pat"\. Available: active-customer, .*webhook-receiver-down\./,
    );

    const badParam = await runCli(['scenario', 'run', 'make-installment-overdue', '-p', 'days'], env);
    expect(badParam.code).toBe(2);
    expect(badParam.stderr).toContain('--param takes key=value, got "days"');

    const badDuration = await runCli(['clock', 'advance', 'soon'], env);
    expect(badDuration.code).toBe(2);
    expect(badDuration.stderr).toContain('"soon" is neither a duration (90s, 15m, 2h, 35d) nor a date-time');
  });

  it('exits 1 with a hint when the sandbox cannot be reached, and prints the error as JSON', async () => {
    const res = await runCli(['clock', 'show', '--json'], {
      ...env,
      CREDIT_SANDBOX_URL: 'http://127.0.0.1:9',
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('cannot reach the sandbox at http://127.0.0.1:9');
    expect(JSON.parse(res.stdout)).toEqual({
      error: { message: expect.stringContaining('Is it running?'), kind: 'UnreachableError' },
    });
  });

  it('creates a partner, then reads and moves its clock with --client-id/--client-secret flags', async () => {
    const created = await runCli(['partners', 'create', '--name', 'cli-test', '--json'], env);
    expect(created.code).toBe(0);
    const partner = JSON.parse(created.stdout) as {
      name: string;
      client_id: string;
      client_secret: string;
      clock: { now: string };
    };
    expect(partner.name).toBe('cli-test');
    expect(partner.client_secret).toMatch(/^svc_cs_test_/);
    const flags = ['--client-id', partner.client_id, '--client-secret', partner.client_secret];
    const moved = await runCli(['clock', 'advance', '35d', '--json', ...flags], env);
    expect(moved.code).toBe(0);
    const clock = JSON.parse(moved.stdout) as { now: string; frozen: boolean };
    expect(clock.frozen).toBe(true);
    expect(Date.parse(clock.now) - Date.parse(partner.clock.now)).toBe(35 * 86_400_000);
    const shown = await runCli(['clock', 'show', ...flags], env);
    expect(shown.stdout.trim()).toBe(`${clock.now}  (frozen)`);
  });

  it('triggers loan.active, then pays an installment and approves KYC with the QA shortcuts', async () => {
    const partner = await partnerEnv();
    const triggered = await runCli(['trigger', 'loan.active', '--json'], partner);
    expect(triggered.code).toBe(0);
    expect(triggered.stderr).toContain('→ let the loan reach active');
    const { event, objects } = JSON.parse(triggered.stdout) as {
      event: { type: string; data: { id: string; status: string } };
      objects: { loan_id: string; customer_id: string };
    };
    expect(event.type).toBe('loan.active');
    expect(event.data).toMatchObject({ id: objects.loan_id, status: 'active' });

    const paid = await runCli(['loans', 'pay', objects.loan_id, '--json'], partner);
    expect(paid.code).toBe(0);
    const receipt = JSON.parse(paid.stdout) as {
      installment_number: number;
      transaction: { status: string };
    };
    expect(receipt).toMatchObject({ installment_number: 1, transaction: { status: 'paid' } });
    // Paying it again reports the API's refusal, not a 400 for an amount of 0.00.
    const again = await runCli(['loans', 'pay', objects.loan_id, '--installment', '1'], partner);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('422 installment_already_paid');

    const review = await runCli(['trigger', 'customer.under_review', '--json'], partner);
    const customerId = (JSON.parse(review.stdout) as { objects: { customer_id: string } }).objects
      .customer_id;
    const approved = await runCli(['customers', 'approve-kyc', customerId], partner);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toMatch(new RegExp(`^${customerId}  active  cpf \\d{11}`));
    expect(approved.stdout).toContain('selfie                 approved');
  });

  it('tails new events (refreshing its token after a clock jump) and lists them', async () => {
    const partner = await partnerEnv();
    const tail = spawnCli(
      ['events', 'tail', '--type', 'customer.*', '--max', '1', '--timeout', WAIT_LIMIT_S, '--json'],
      partner,
    );
    let stdout = '';
    tail.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    await waitForLine(tail.stderr as NodeJS.ReadableStream, (line) =>
      line.startsWith('tailing customer.* events'),
    );
    // Two hours later the tail's token has expired; it must get a new one to see the event.
    await runCli(['clock', 'advance', '2h'], partner);
    const created = await runCli(['trigger', 'customer.created', '--json'], partner);
    const customerId = (JSON.parse(created.stdout) as { objects: { customer_id: string } }).objects
      .customer_id;
    expect(await exitOf(tail)).toBe(0);
    const line = JSON.parse(stdout.trim()) as { type: string; data: { id: string } };
    expect(line).toMatchObject({ type: 'customer.created', data: { id: customerId } });

    const listed = await runCli(['events', 'list', '--type', 'customer.created', '--limit', '5'], partner);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(
      new RegExp(`customer\\.created\\s+evt_[0-9a-f]{32}  ${customerId} \\(pending_kyc\\)`),
    );
  });
});
