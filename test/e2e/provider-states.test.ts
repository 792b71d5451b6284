import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import { basic, createTestSandbox } from '../support/sandbox.js';

const PATH = '/v3/sandbox/provider-states';
const BUNDLED = [
  'a customer whose KYC was rejected',
  'a customer with an overdue installment',
  'a finished loan',
  'a loan awaiting signature',
  'a loan with an overdue installment',
  'an active customer with a credit offer',
  'an active loan',
];

describe('POST /v3/sandbox/provider-states (Pact state change URL)', () => {
  it('sets a state up by running its scenario and answers the captures flat, for fromProviderState', async () => {
    const sandbox = createTestSandbox();
    const res = await sandbox.json<Record<string, unknown>>('POST', PATH, {
      body: {
        state: 'a loan awaiting signature',
        params: { amount: '2500.00' },
        action: 'setup',
        consumer: 'app',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.loan_id).toMatch(/^ln_/);
    expect(res.body.customer_id).toMatch(/^cust_/);
    expect(res.body.loan_status).toBe('awaiting_signatures');
    expect(res.body.simulation_requested_amount).toBe('2500.00');
    expect(Object.values(res.body).every((v) => v === null || typeof v !== 'object')).toBe(true);
    const loan = await sandbox.json<{ status: string }>('GET', `/v3/loans/${res.body.loan_id}`);
    expect(loan.body.status).toBe('awaiting_signatures');
  });

  it('answers 400 for an unknown state, listing every state the sandbox sets up', async () => {
    const sandbox = createTestSandbox();
    const res = await sandbox.json<{ code: string; detail: string }>('POST', PATH, {
      body: { state: 'a customer on the moon', action: 'setup' },
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('unknown_provider_state');
    for (const state of BUNDLED) expect(res.body.detail).toContain(`"${state}"`);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
  });

  it('answers 400 naming the param when a state gets a param its scenario does not take', async () => {
    const sandbox = createTestSandbox();
    const res = await sandbox.json<{ code: string; detail: string; errors: { param: string }[] }>(
      'POST',
      PATH,
      {
        body: { state: 'an active loan', params: { colour: 'blue' } },
      },
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.detail).toContain('an active loan');
    expect(res.body.errors[0]?.param).toBe('params.colour');
  });

  it('answers 400 when no state is named, and never 500 for a malformed body', async () => {
    const sandbox = createTestSandbox();
    for (const body of [
      { action: 'setup' },
      { state: 42 },
      { state: 'x', action: 'explode' },
      '[',
      { states: [] },
    ]) {
      const res = await sandbox.json<{ code: string }>('POST', PATH, { body });
      expect(res.status).toBe(400);
    }
  });

  it('keeps working across states whose scenarios move the clock: Basic client credentials never expire', async () => {
    const sandbox = createTestSandbox();
    const auth = { authorization: basic(DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET) };
    const overdue = await sandbox.json<Record<string, unknown>>('POST', PATH, {
      token: null,
      headers: auth,
      body: { state: 'a customer with an overdue installment', params: { days: 40 } },
    });
    expect(overdue.status).toBe(200);
    expect(overdue.body.installment_status).toBe('overdue');
    expect(overdue.body.installment_days_overdue).toBe(40);
    // The clock moved weeks: a token from before is expired, the credential is not.
    const teardown = await sandbox.json('POST', PATH, {
      token: null,
      headers: auth,
      body: { state: 'a customer with an overdue installment', action: 'teardown' },
    });
    expect(teardown.status).toBe(200);
    expect(teardown.body).toEqual({});
    const wrong = await sandbox.json<{ code: string }>('POST', PATH, {
      token: null,
      headers: { authorization: basic(DEFAULT_CLIENT_ID, 'not-the-secret') },
      body: { state: 'an active loan' },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('invalid_client');
    // Basic is for the state change URL only: every other route still wants a bearer token.
    const elsewhere = await sandbox.json('GET', '/v3/loans', { token: null, headers: auth });
    expect(elsewhere.status).toBe(401);
  });

  it('teardown restores the partner as it was before setup (a snapshot): its own data and its clock', async () => {
    const sandbox = createTestSandbox();
    const mine = await sandbox.json<{ id: string }>('POST', '/v3/customers', {
      body: { cpf: '52998224725', name: 'Ana Souza', email: 'ana@example.com' },
    });
    expect(mine.status).toBe(201);
    const clockBefore = (await sandbox.json<{ now: string }>('GET', '/v3/sandbox/clock')).body.now;
    const setup = await sandbox.json<Record<string, unknown>>('POST', PATH, {
      body: { state: 'a customer with an overdue installment', params: { days: 10 } },
    });
    expect(setup.status).toBe(200);
    expect((await sandbox.json<{ now: string }>('GET', '/v3/sandbox/clock')).body.now).not.toBe(clockBefore);
    const snapshots = await sandbox.json<{ data: { name: string }[] }>('GET', '/v3/sandbox/snapshots');
    expect(snapshots.body.data.map((s) => s.name)).toEqual(['pact-provider-state']);
    const teardown = await sandbox.json('POST', PATH, {
      body: { state: 'a customer with an overdue installment', action: 'teardown' },
    });
    expect(teardown.status).toBe(200);
    expect((await sandbox.json('GET', `/v3/customers/${setup.body.customer_id}`)).status).toBe(404);
    expect((await sandbox.json('GET', `/v3/customers/${mine.body.id}`)).status).toBe(200);
    expect((await sandbox.json<{ now: string }>('GET', '/v3/sandbox/clock')).body.now).toBe(clockBefore);
    // The snapshot is gone: the next interaction saves afresh; a second teardown changes nothing.
    expect((await sandbox.json<{ data: unknown[] }>('GET', '/v3/sandbox/snapshots')).body.data).toEqual([]);
    const again = await sandbox.json('POST', PATH, { body: { state: 'an active loan', action: 'teardown' } });
    expect(again.status).toBe(200);
    expect((await sandbox.json('GET', `/v3/customers/${mine.body.id}`)).status).toBe(200);
  });

  it('a second state of the same interaction keeps the snapshot of the first: one teardown undoes both', async () => {
    const sandbox = createTestSandbox();
    const first = await sandbox.json<Record<string, unknown>>('POST', PATH, {
      body: { state: 'an active customer with a credit offer' },
    });
    const second = await sandbox.json<Record<string, unknown>>('POST', PATH, {
      body: { state: 'a customer whose KYC was rejected' },
    });
    expect([first.status, second.status]).toEqual([200, 200]);
    await sandbox.json('POST', PATH, {
      body: { state: 'an active customer with a credit offer', action: 'teardown' },
    });
    await sandbox.json('POST', PATH, {
      body: { state: 'a customer whose KYC was rejected', action: 'teardown' },
    });
    expect((await sandbox.json<{ data: unknown[] }>('GET', '/v3/customers')).body.data).toEqual([]);
  });

  it('takes the states array form and merges the captures of every state', async () => {
    const sandbox = createTestSandbox();
    const res = await sandbox.json<Record<string, unknown>>('POST', PATH, {
      body: {
        states: ['an active customer with a credit offer', { name: 'a finished loan', params: {} }],
        action: 'setup',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.offer_id).toMatch(/^co_/);
    expect(res.body.loan_id).toMatch(/^ln_/);
    expect(res.body.receipt_loan).toBeUndefined(); // a nested object is left out
    const loan = await sandbox.json<{ status: string }>('GET', `/v3/loans/${res.body.loan_id}`);
    expect(loan.body.status).toBe('finished');
  });

  it("answers 422 naming the failed step when a state's scenario fails", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'provider-states-'));
    writeFileSync(
      join(dir, 'never-works.yaml'),
      'name: never-works\ndescription: fails on purpose\nprovider_states: ["a broken state"]\nsteps:\n  - name: impossible\n    expect: 1 == 2\n',
    );
    const sandbox = createTestSandbox({ scenarioDirs: [dir] });
    const res = await sandbox.json<{ code: string; detail: string }>('POST', PATH, {
      body: { state: 'a broken state' },
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('provider_state_failed');
    expect(res.body.detail).toContain('step 1 ("impossible")');
  });

  it('refuses at load a state that two scenario files declare', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'provider-states-'));
    writeFileSync(
      join(dir, 'mine.yaml'),
      'name: mine\ndescription: clashes\nprovider_states: ["an active loan"]\nsteps:\n  - advance: 1d\n',
    );
    const sandbox = createTestSandbox({ scenarioDirs: [dir] });
    const res = await sandbox.json<{ code: string; detail: string }>('POST', PATH, {
      body: { state: 'an active loan' },
    });
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('scenario_files_invalid');
    expect(res.body.detail).toContain('provider state "an active loan" is also declared by');
  });
});
