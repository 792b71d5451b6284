import { describe, expect, it } from 'vitest';
import { activeCustomer, offersOf, simulate } from '../support/credit.js';
import { createCustomer } from '../support/customers.js';
import { post, signIn } from '../support/dashboard-session.js';
import { createTestSandbox, type TestSandbox } from '../support/sandbox.js';

interface Rule {
  id: string;
  match: { method: string | null; path: string };
  action: Record<string, unknown>;
  times_left: number | null;
  probability: number | null;
  expires_at: string | null;
  applied: number;
  created_at: string;
}

interface Problem {
  status: number;
  code: string;
  param?: string;
  detail: string;
  type: string;
  title: string;
  instance: string;
}

interface Logged {
  id: string;
  method: string;
  path: string;
  status: number;
  fault: { rule_id: string; action: Record<string, unknown> } | null;
  idempotent_replayed: boolean;
}

async function addRule(sandbox: TestSandbox, body: Record<string, unknown>): Promise<Rule> {
  const res = await sandbox.json<Rule>('POST', '/v3/sandbox/faults', { body });
  if (res.status !== 201) throw new Error(`rule refused: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function requestLog(sandbox: TestSandbox, query = ''): Promise<Logged[]> {
  return (await sandbox.json<{ data: Logged[] }>('GET', `/v3/sandbox/requests${query}`)).body.data;
}

describe('fault rules: add, list, delete, clear', () => {
  it('answers a new rule with 201, its id and Location; lists in creation order; deletes one or all', async () => {
    const sandbox = createTestSandbox();
    const created = await sandbox.json<Rule>('POST', '/v3/sandbox/faults', {
      body: { match: { method: 'post', path: '/loans' }, action: { status: 503 }, times: 2 },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      match: { method: 'POST', path: '/loans' },
      action: { status: 503 },
      times_left: 2,
      probability: null,
      expires_at: null,
      applied: 0,
    });
    expect(created.body.id).toMatch(/^flt_/);
    expect(created.headers.get('location')).toBe(`/v3/sandbox/faults/${created.body.id}`);
    const second = await addRule(sandbox, {
      match: { path: '/v3/customers/:customer_id' },
      action: { delay: { min: '100ms', max: '2000ms' } },
      probability: 0.25,
      expires_in: '10m',
    });
    expect(second).toMatchObject({
      match: { method: null, path: '/customers/{customer_id}' },
      action: { delay: { min: '100ms', max: '2s' } },
      probability: 0.25,
      expires_at: '2026-03-02T12:10:00.000Z',
    });

    const listed = await sandbox.json<{ data: Rule[] }>('GET', '/v3/sandbox/faults');
    expect(listed.body.data.map((r) => r.id)).toEqual([created.body.id, second.id]);

    const deleted = await sandbox.json<Rule>('DELETE', `/v3/sandbox/faults/${created.body.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.id).toBe(created.body.id);
    expect((await sandbox.json('DELETE', `/v3/sandbox/faults/${created.body.id}`)).status).toBe(404);

    await addRule(sandbox, { match: { path: '/loans' }, action: { truncate: true } });
    const cleared = await sandbox.json<{ deleted: number }>('DELETE', '/v3/sandbox/faults');
    expect(cleared.body).toEqual({ deleted: 2 });
    expect((await sandbox.json<{ data: Rule[] }>('GET', '/v3/sandbox/faults')).body.data).toEqual([]);
  });

  it("keeps each partner's rules to itself", async () => {
    const sandbox = createTestSandbox();
    const rule = await addRule(sandbox, { match: { path: '/customers' }, action: { status: 500 } });
    const other = await sandbox.json<{ client_id: string; client_secret: string }>(
      'POST',
      '/v3/sandbox/partners',
      { body: { name: 'other' } },
    );
    const token = await sandbox.token(other.body.client_id, other.body.client_secret);
    expect((await sandbox.json<{ data: Rule[] }>('GET', '/v3/sandbox/faults', { token })).body.data).toEqual(
      [],
    );
    expect((await sandbox.json('DELETE', `/v3/sandbox/faults/${rule.id}`, { token })).status).toBe(404);
    expect((await sandbox.json('GET', '/v3/customers', { token })).status).toBe(200);
    expect((await sandbox.json('GET', '/v3/customers')).status).toBe(500);
  });

  it.each([
    [{ match: { path: '/loan' }, action: { status: 503 } }, 'match.path', /did you mean "\/loans"/],
    [
      { match: { path: '/customers/cust_123' }, action: { status: 503 } },
      'match.path',
      /did you mean "\/customers\/\{customer_id\}"/,
    ],
    [{ match: { path: '/sandbox/clock' }, action: { status: 503 } }, 'match.path', /never faulted/],
    [{ match: { path: '/sandbox/faults' }, action: { status: 503 } }, 'match.path', /never faulted/],
    [{ match: { method: 'DELETE', path: '/loans' }, action: { status: 503 } }, 'match.method', /GET, POST/],
    [{ match: { path: '/loans' }, action: { status: 503 }, times: 1, probability: 0.5 }, 'times', /not both/],
    [{ match: { path: '/loans' }, action: {} }, 'action', /exactly one of/],
    [{ match: { path: '/loans' }, action: { status: 503, reset: true } }, 'action', /status and reset/],
    [
      { match: { path: '/loans' }, action: { status: 503, after_processing: true } },
      'action.after_processing',
      /502 or 504/,
    ],
    [{ match: { path: '/loans' }, action: { delay: '61s' } }, 'action.delay', /up to 1m/],
    [{ match: { path: '/loans' }, action: { delay: 'soon' } }, 'action.delay', /duration/],
    [{ match: { path: '/loans' }, action: { delay: { min: '2s', max: '1s' } } }, 'action.delay', /min/],
    [{ match: { path: '/loans' }, action: { timeout: '3m' } }, 'action.timeout', /up to 2m/],
    [
      { match: { path: '/loans' }, action: { truncate: true, after_processing: true } },
      'action.after_processing',
      /truncate/,
    ],
    [{ match: { path: '/loans' }, action: { status: 503, retry_after: 3 } }, 'action.retry_after', /429/],
    [{ match: { path: '/loans' }, action: { status: 503 }, expires_in: '31d' }, 'expires_in', /30d/],
  ])('refuses %j with 400 naming %s', async (body, param, detail) => {
    const sandbox = createTestSandbox();
    const res = await sandbox.json<Problem>('POST', '/v3/sandbox/faults', { body });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.param).toBe(param);
    expect(res.body.detail).toMatch(detail);
  });

  it('refuses shapes the schema does not know (unknown status, stray fields) with 400', async () => {
    const sandbox = createTestSandbox();
    for (const body of [
      { match: { path: '/loans' }, action: { status: 404 } },
      { match: { path: '/loans' }, action: { status: 503 }, extra: 1 },
      { match: { path: '/loans' }, action: { status: 503 }, probability: 0 },
      { match: { path: '/loans' }, action: { status: 503 }, times: 0 },
      { action: { status: 503 } },
    ]) {
      const res = await sandbox.json<Problem>('POST', '/v3/sandbox/faults', { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('holds at most 50 rules per partner (422 too_many_fault_rules)', async () => {
    const sandbox = createTestSandbox();
    for (let i = 0; i < 50; i++)
      await addRule(sandbox, { match: { path: '/loans' }, action: { status: 503 } });
    const res = await sandbox.json<Problem>('POST', '/v3/sandbox/faults', {
      body: { match: { path: '/loans' }, action: { status: 503 } },
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('too_many_fault_rules');
  });
});

describe('status faults', () => {
  it('answers the status instead of the operation on the next `times` calls, then the rule is gone', async () => {
    const sandbox = createTestSandbox();
    const customer = await createCustomer(sandbox);
    const rule = await addRule(sandbox, {
      match: { method: 'GET', path: '/customers/{customer_id}' },
      action: { status: 503 },
      times: 2,
    });
    const first = await sandbox.json<Problem>('GET', `/v3/customers/${customer.id}`);
    expect(first.status).toBe(503);
    expect(first.headers.get('content-type')).toBe('application/problem+json');
    expect(first.body).toMatchObject({
      type: 'http://sandbox.test/problems/service_unavailable',
      title: 'Service unavailable',
      status: 503,
      code: 'service_unavailable',
    });
    expect(first.body.instance).toMatch(new RegExp(`^/v3/customers/${customer.id}#req_`));
    expect((await sandbox.json<{ data: Rule[] }>('GET', '/v3/sandbox/faults')).body.data[0]).toMatchObject({
      times_left: 1,
      applied: 1,
    });
    // Another route of the same partner is untouched.
    expect((await sandbox.json('GET', '/v3/customers')).status).toBe(200);
    expect((await sandbox.json('GET', `/v3/customers/${customer.id}`)).status).toBe(503);
    expect((await sandbox.json('GET', `/v3/customers/${customer.id}`)).status).toBe(200);
    expect((await sandbox.json<{ data: Rule[] }>('GET', '/v3/sandbox/faults')).body.data).toEqual([]);

    const log = await requestLog(sandbox, '?path=/v3/customers/');
    expect(log.map((r) => [r.status, r.fault?.rule_id ?? null])).toEqual([
      [200, null],
      [503, rule.id],
      [503, rule.id],
    ]);
    expect(log[1]?.fault?.action).toEqual({ status: 503 });
  });

  it.each([
    [500, 'internal_error'],
    [502, 'bad_gateway'],
    [504, 'gateway_timeout'],
  ])('answers %i as production would (%s)', async (status, code) => {
    const sandbox = createTestSandbox();
    await addRule(sandbox, { match: { path: '/customers' }, action: { status }, times: 1 });
    const res = await sandbox.json<Problem>('GET', '/v3/customers');
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
  });

  it('answers 429 with Retry-After (1 s unless the rule says)', async () => {
    const sandbox = createTestSandbox();
    await addRule(sandbox, { match: { path: '/customers' }, action: { status: 429 }, times: 1 });
    await addRule(sandbox, {
      match: { path: '/customers' },
      action: { status: 429, retry_after: 7 },
      times: 1,
    });
    const first = await sandbox.json<Problem>('GET', '/v3/customers');
    expect(first.status).toBe(429);
    expect(first.body.code).toBe('rate_limited');
    expect(first.headers.get('retry-after')).toBe('1');
    const second = await sandbox.json<Problem>('GET', '/v3/customers');
    expect(second.headers.get('retry-after')).toBe('7');
  });

  it('does not run the operation and caches nothing: the retry with the same key creates the customer', async () => {
    const sandbox = createTestSandbox();
    await addRule(sandbox, {
      match: { method: 'POST', path: '/customers' },
      action: { status: 503 },
      times: 1,
    });
    const body = {
      cpf: '52998224725',
      name: 'Maria da Silva',
      email: 'maria@example.com',
      phone: '+5511987654321',
    };
    const headers = { 'idempotency-key': 'k-503' };
    expect((await sandbox.json('POST', '/v3/customers', { body, headers })).status).toBe(503);
    expect((await sandbox.json<{ data: unknown[] }>('GET', '/v3/customers')).body.data).toHaveLength(0);
    const retry = await sandbox.json('POST', '/v3/customers', { body, headers });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
  });

  it('stops acting after expires_in on the partner clock', async () => {
    const sandbox = createTestSandbox();
    await addRule(sandbox, { match: { path: '/customers' }, action: { status: 503 }, expires_in: '10m' });
    expect((await sandbox.json('GET', '/v3/customers')).status).toBe(503);
    expect((await sandbox.json('GET', '/v3/customers')).status).toBe(503);
    await sandbox.json('POST', '/v3/sandbox/clock/advance', { body: { by: '10m' } });
    expect((await sandbox.json('GET', '/v3/customers')).status).toBe(200);
    expect((await sandbox.json<{ data: Rule[] }>('GET', '/v3/sandbox/faults')).body.data).toEqual([]);
  });

  it('matches rules in order of creation: the first that matches acts', async () => {
    const sandbox = createTestSandbox();
    const first = await addRule(sandbox, {
      match: { path: '/customers' },
      action: { status: 502 },
      times: 1,
    });
    const second = await addRule(sandbox, {
      match: { path: '/customers' },
      action: { status: 504 },
      times: 1,
    });
    expect((await sandbox.json('GET', '/v3/customers')).status).toBe(502);
    expect((await sandbox.json('GET', '/v3/customers')).status).toBe(504);
    const log = await requestLog(sandbox, '?path=/v3/customers');
    expect(log.map((r) => r.fault?.rule_id)).toEqual([second.id, first.id]);
  });
});

describe('a lost answer (after_processing) and the idempotent retry recipe', () => {
  it('creates the loan, answers 502, and the retry with the same key replays the loan without a second one', async () => {
    const sandbox = createTestSandbox();
    const customer = await activeCustomer(sandbox);
    const [offer] = await offersOf(sandbox, customer.id);
    if (!offer) throw new Error('no offer');
    const simulation = await simulate(sandbox, offer.id, offer.min_amount, offer.installments ?? 12);
    const rule = await addRule(sandbox, {
      match: { method: 'POST', path: '/loans' },
      action: { status: 502, after_processing: true },
      times: 1,
    });
    const body = { credit_offer_id: offer.id, simulation_id: simulation.id };
    const headers = { 'idempotency-key': 'loan-retry-1' };

    const lost = await sandbox.json<Problem>('POST', '/v3/loans', { body, headers });
    expect(lost.status).toBe(502);
    expect(lost.body.code).toBe('bad_gateway');
    expect(lost.headers.get('location')).toBeNull();

    const retry = await sandbox.json<{ id: string; status: string }>('POST', '/v3/loans', { body, headers });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const loans = await sandbox.json<{ data: { id: string }[] }>('GET', '/v3/loans');
    expect(loans.body.data.map((l) => l.id)).toEqual([retry.body.id]);

    const log = await requestLog(sandbox, '?path=/v3/loans&method=POST');
    expect(log.map((r) => [r.status, r.fault?.rule_id ?? null, r.idempotent_replayed])).toEqual([
      [201, null, true],
      [502, rule.id, false],
    ]);
    expect(log[1]?.fault?.action).toEqual({ status: 502, after_processing: true });
  });
});

describe('rules on /auth/token end by themselves', () => {
  it('refuses one with neither times nor expires_in, or lasting over 1h (422 fault_rule_unbounded)', async () => {
    const sandbox = createTestSandbox();
    const refused = async (body: Record<string, unknown>) => {
      const res = await sandbox.json<Problem>('POST', '/v3/sandbox/faults', { body });
      expect([res.status, res.body.code]).toEqual([422, 'fault_rule_unbounded']);
      return res.body;
    };
    const token = { method: 'POST', path: '/auth/token' };
    const forever = await refused({ match: token, action: { status: 503 } });
    expect(forever.param).toBe('times');
    expect(forever.detail).toMatch(
      /never end.*deleting a rule needs a token.*times.*expires_in of at most 1h/,
    );
    // A probability alone does not end it either; the path named with /v3 or without a method too.
    await refused({ match: token, action: { status: 503 }, probability: 0.5 });
    await refused({ match: { path: '/v3/auth/token' }, action: { reset: true } });
    const long = await refused({ match: token, action: { status: 503 }, times: 3, expires_in: '61m' });
    expect(long.param).toBe('expires_in');
    expect((await sandbox.json<{ data: unknown[] }>('GET', '/v3/sandbox/faults')).body.data).toEqual([]);

    // Bounded ones are taken: a count, or at most an hour.
    await addRule(sandbox, { match: token, action: { status: 503 }, times: 1 });
    await addRule(sandbox, { match: token, action: { status: 503 }, probability: 0.5, expires_in: '1h' });
    // Other paths keep the 30-day bound.
    await addRule(sandbox, { match: { path: '/customers' }, action: { status: 503 }, expires_in: '30d' });
  });

  it('ends by itself, and the dashboard can delete it meanwhile without a token', async () => {
    const sandbox = createTestSandbox();
    await addRule(sandbox, {
      match: { method: 'POST', path: '/auth/token' },
      action: { status: 503 },
      expires_in: '1h',
    });
    await expect(sandbox.token()).rejects.toThrow(/503/);
    // The dashboard signs in with the client secret inside the sandbox, never through /auth/token.
    const { cookie, csrf } = await signIn(sandbox);
    expect((await post(sandbox, '/dashboard/faults/clear', cookie, { _csrf: csrf })).status).toBe(303);
    expect(await sandbox.token()).toMatch(/\./);

    // Left alone, the rule ends with its hour (a token got before it still moves the clock).
    await addRule(sandbox, {
      match: { method: 'POST', path: '/auth/token' },
      action: { status: 503 },
      expires_in: '1h',
    });
    await expect(sandbox.token()).rejects.toThrow(/503/);
    expect((await sandbox.json('POST', '/v3/sandbox/clock/advance', { body: { by: '1h' } })).status).toBe(
      200,
    );
    expect(await sandbox.token()).toMatch(/\./);
  });
});

describe('what faults never touch', () => {
  it('leaves control routes, openapi.json and healthz alone; faults /auth/token only when a rule names it', async () => {
    const sandbox = createTestSandbox();
    // A rule on every method of several paths, none of them a control route.
    await addRule(sandbox, { match: { path: '/customers' }, action: { status: 503 } });
    await addRule(sandbox, { match: { path: '/loans' }, action: { status: 503 } });
    expect((await sandbox.json('GET', '/v3/sandbox/faults')).status).toBe(200);
    expect((await sandbox.json('GET', '/v3/sandbox/clock')).status).toBe(200);
    expect((await sandbox.json('GET', '/v3/sandbox/requests')).status).toBe(200);
    expect((await sandbox.app.request('/v3/openapi.json')).status).toBe(200);
    expect((await sandbox.app.request('/healthz')).status).toBe(200);
    expect(await sandbox.token()).toMatch(/\./);

    await addRule(sandbox, {
      match: { method: 'POST', path: '/auth/token' },
      action: { status: 503 },
      times: 1,
    });
    await expect(sandbox.token()).rejects.toThrow(/503/);
    expect(await sandbox.token()).toMatch(/\./);
    expect((await sandbox.json('DELETE', '/v3/sandbox/faults')).status).toBe(200);
    expect((await sandbox.json('GET', '/v3/customers')).status).toBe(200);
  });

  it("does not fault the scenario runner's own steps", async () => {
    const sandbox = createTestSandbox();
    await addRule(sandbox, { match: { method: 'POST', path: '/customers' }, action: { status: 503 } });
    const run = await sandbox.json<{ status: string }>('POST', '/v3/sandbox/scenarios/active-customer/runs', {
      body: {},
    });
    expect(run.status).toBe(200);
    expect(run.body.status).toBe('passed');
    expect((await sandbox.json('POST', '/v3/customers', { body: {} })).status).toBe(503);
  });
});

describe('probability draws from the partner stream', () => {
  it('faults the same calls the same way with the same seed, some and not all', async () => {
    const pattern = async () => {
      const sandbox = createTestSandbox();
      await addRule(sandbox, { match: { path: '/customers' }, action: { status: 503 }, probability: 0.5 });
      const statuses: number[] = [];
      for (let i = 0; i < 24; i++) statuses.push((await sandbox.request('GET', '/v3/customers')).status);
      return statuses;
    };
    const first = await pattern();
    expect(await pattern()).toEqual(first);
    expect(first.filter((s) => s === 503).length).toBeGreaterThan(3);
    expect(first.filter((s) => s === 200).length).toBeGreaterThan(3);
  });
});
