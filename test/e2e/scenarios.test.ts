import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSandbox, newPartnerToken } from '../support/sandbox.js';
import { ALL_SCENARIOS, FAILING_SCENARIO, RUNNABLE_SCENARIOS } from '../support/scenarios.js';
import { type Receiver, startReceiver } from '../support/webhook-receiver.js';

interface StepResult {
  index: number;
  name: string;
  kind: string;
  status: string;
  detail: string;
  response?: { status: number; body: unknown };
}
interface RunResult {
  scenario: string;
  status: string;
  params: Record<string, unknown>;
  steps: StepResult[];
  failed_step?: { index: number; name: string; detail: string };
}
interface LoanBody {
  id: string;
  status: string;
}

const SHIPPED = RUNNABLE_SCENARIOS;

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

const paramsFor = (name: string) => (name === 'webhook-receiver-down' ? { receiver_url: receiver.url } : {});

describe('scenario runner over HTTP', () => {
  it.each(SHIPPED)('%s runs green', async (name) => {
    const sandbox = createTestSandbox();
    const run = await sandbox.json<RunResult>('POST', `/v3/sandbox/scenarios/${name}/runs`, {
      body: { params: paramsFor(name) },
    });
    expect(run.status).toBe(200);
    expect(run.body.failed_step).toBeUndefined();
    expect(run.body.status).toBe('passed');
    expect(run.body.steps.every((step) => step.status === 'passed')).toBe(true);
  });

  // Started 2027-02-26, the first installment falls due on Good Friday 2027-03-26 (or Sunday the
  // 28th for offers without a due-date rule): payable until Monday the 29th.
  it.each(['partial-payment', 'overdue-installment'])(
    '%s runs green when the first due date is a holiday',
    async (name) => {
      const sandbox = createTestSandbox({ startTimeMs: Date.parse('2027-02-26T12:00:00.000Z') });
      const run = await sandbox.json<RunResult>('POST', `/v3/sandbox/scenarios/${name}/runs`, { body: {} });
      expect(run.body.failed_step).toBeUndefined();
      expect(run.body.status).toBe('passed');
      // The case under test really happened: the first installment was payable later than due.
      const loans = await sandbox.json<{ data: LoanBody[] }>('GET', '/v3/loans');
      const txs = await sandbox.json<{ data: { due_date: string; payable_until: string }[] }>(
        'GET',
        `/v3/loans/${loans.body.data[0]?.id}/transactions`,
      );
      expect(txs.body.data[0]?.payable_until).toBe('2027-03-29');
      expect(['2027-03-26', '2027-03-28']).toContain(txs.body.data[0]?.due_date);
    },
  );

  it('lists the scenarios with their params', async () => {
    const sandbox = createTestSandbox();
    const list = await sandbox.json<{
      data: { name: string; params: { name: string; required: boolean }[] }[];
    }>('GET', '/v3/sandbox/scenarios');
    expect(list.status).toBe(200);
    expect(list.body.data.map((s) => s.name)).toEqual(ALL_SCENARIOS);
    const overdue = list.body.data.find((s) => s.name === 'make-installment-overdue');
    expect(overdue?.params).toEqual([
      {
        name: 'loan_id',
        type: 'string',
        description: 'The active loan (ln_…)',
        default: null,
        required: true,
        example: 'ln_3f2a0c1d9b8e4f6a7c5d2e1b0a9f8e7d',
      },
      {
        name: 'installment_number',
        type: 'integer',
        description: 'Which installment to make overdue',
        default: 3,
        required: false,
        example: null,
      },
      {
        name: 'days',
        type: 'integer',
        description: 'Days past its due date',
        default: 30,
        required: false,
        example: null,
      },
    ]);
  });

  it('answers 404 for an unknown scenario, listing the available ones', async () => {
    const sandbox = createTestSandbox();
    const res = await sandbox.json<{ code: string; detail: string; status: number }>(
      'POST',
      '/v3/sandbox/scenarios/happy-pat/runs',
    );
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body.code).toBe('scenario_not_found');
    expect(res.body.detail).toBe(`Unknown scenario "happy-pat". Available: ${ALL_SCENARIOS.join(', ')}.`);
  });

  it('answers 400 naming each bad param', async () => {
    const sandbox = createTestSandbox();
    const res = await sandbox.json<{ code: string; errors: { param: string; detail: string }[] }>(
      'POST',
      '/v3/sandbox/scenarios/make-installment-overdue/runs',
      { body: { params: { installment_number: 'three', colour: 'red' } } },
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toEqual([
      {
        param: 'params.colour',
        detail:
          'scenario "make-installment-overdue" has no param "colour" (params: loan_id, installment_number, days)',
      },
      { param: 'params.loan_id', detail: 'param "loan_id" is required (The active loan (ln_…))' },
      {
        param: 'params.installment_number',
        detail: 'param "installment_number" must be an integer, got "three"',
      },
    ]);
  });

  it('targets an existing loan: installment 3 becomes 30 days overdue', async () => {
    const sandbox = createTestSandbox();
    const happy = await sandbox.json<RunResult>('POST', '/v3/sandbox/scenarios/happy-path/runs', {
      body: {},
    });
    const loan = happy.body.steps.find((s) => s.name === 'the pix disbursement is confirmed')?.response
      ?.body as LoanBody;
    expect(loan.status).toBe('active');

    const run = await sandbox.json<RunResult>('POST', '/v3/sandbox/scenarios/make-installment-overdue/runs', {
      body: { params: { loan_id: loan.id } },
    });
    expect(run.body.status).toBe('passed');
    expect(run.body.params).toEqual({ loan_id: loan.id, installment_number: 3, days: 30 });

    const txs = await sandbox.json<{
      data: { installment_number: number; status: string; days_overdue: number }[];
    }>('GET', `/v3/loans/${loan.id}/transactions?limit=100`);
    const third = txs.body.data.find((tx) => tx.installment_number === 3);
    expect(third).toMatchObject({ status: 'overdue', days_overdue: 30 });
    // Installments 1 and 2 fell due earlier, so they are further overdue; 4 is not due yet.
    expect(txs.body.data.find((tx) => tx.installment_number === 4)?.status).toBe('pending');
  });

  it('reports a failing expectation as status failed with the step and the reason (HTTP 200)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qa-scenarios-'));
    writeFileSync(join(dir, 'expect-wrong-status.yaml'), FAILING_SCENARIO);
    const sandbox = createTestSandbox({ scenarioDirs: [dir] });
    const run = await sandbox.json<RunResult>('POST', '/v3/sandbox/scenarios/expect-wrong-status/runs');
    expect(run.status).toBe(200);
    expect(run.body.status).toBe('failed');
    expect(run.body.failed_step).toEqual({
      index: 2,
      name: 'the customer is still pending',
      detail: 'expected customer.status == pending_kyc, but customer.status is "active"',
    });
    expect(run.body.steps.map((s) => s.status)).toEqual(['passed', 'failed', 'skipped']);
  });

  it("runs as the calling partner, through the partner's API path", async () => {
    const sandbox = createTestSandbox();
    const other = await newPartnerToken(sandbox);
    const run = await sandbox.json<RunResult>('POST', '/v3/sandbox/scenarios/happy-path/runs', {
      token: other.token,
      body: {},
    });
    expect(run.body.status).toBe('passed');
    // The loan and its events belong to the calling partner…
    const mine = await sandbox.json<{ data: unknown[] }>('GET', '/v3/loans', { token: other.token });
    expect(mine.body.data).toHaveLength(1);
    const events = await sandbox.json<{ data: { type: string }[] }>('GET', '/v3/sandbox/events?limit=100', {
      token: other.token,
    });
    expect(events.body.data.map((e) => e.type)).toContain('loan.active');
    // The default partner saw nothing.
    expect((await sandbox.json<{ data: unknown[] }>('GET', '/v3/loans')).body.data).toHaveLength(0);
    expect((await sandbox.json<{ data: unknown[] }>('GET', '/v3/sandbox/events')).body.data).toHaveLength(0);
  });

  it('keeps running after a clock advance expires the caller token', async () => {
    const sandbox = createTestSandbox();
    const token = await sandbox.token();
    const run = await sandbox.json<RunResult>('POST', '/v3/sandbox/scenarios/offer-expiry-and-renewal/runs', {
      token,
      body: {},
    });
    expect(run.body.status).toBe('passed');
    // The 30-day advance expired the token the run was started with.
    expect((await sandbox.request('GET', '/v3/sandbox/clock', { token })).status).toBe(401);
  });
});
