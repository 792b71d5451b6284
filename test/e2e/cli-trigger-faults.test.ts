import { describe, expect, it } from 'vitest';
import { partnerEnvOn, runCli, testServerForFile } from '../support/cli.js';

// `trigger` follows the retry recipe (docs/faults.md): an Idempotency-Key on every POST, the same
// key again after a lost answer, a 5xx, a reset or a truncated body. Through the partner's own
// fault rules it completes and leaves exactly one of each object.
const server = testServerForFile();

async function call<T>(
  env: Record<string, string>,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const basic = Buffer.from(`${env.CREDIT_SANDBOX_CLIENT_ID}:${env.CREDIT_SANDBOX_CLIENT_SECRET}`).toString(
    'base64',
  );
  const token = (await (
    await fetch(`${server.url}/v3/auth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}` },
    })
  ).json()) as { access_token: string };
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(res.status, `${method} ${path}`).toBeLessThan(300);
  return (await res.json()) as T;
}

const RULES = [
  {
    match: { method: 'POST', path: '/customers' },
    action: { status: 502, after_processing: true },
    times: 1,
  },
  {
    match: { method: 'POST', path: '/customers/{customer_id}/documents' },
    action: { reset: true, after_processing: true },
    times: 1,
  },
  {
    match: { method: 'POST', path: '/customers/{customer_id}/biometrics' },
    action: { status: 500 },
    times: 1,
  },
  {
    match: { method: 'POST', path: '/credit-offers/{credit_offer_id}/simulations' },
    action: { status: 503 },
    times: 2,
  },
  { match: { method: 'POST', path: '/loans' }, action: { status: 502, after_processing: true }, times: 1 },
  { match: { method: 'GET', path: '/loans/{loan_id}' }, action: { truncate: true }, times: 1 },
];

describe('credit-sandbox trigger through fault rules', () => {
  it('completes loan.active through lost answers, 5xx, a reset and a truncated body, leaving one of each object', async () => {
    const env = { ...(await partnerEnvOn(server.url, 'trigger-faults')), CREDIT_SANDBOX_URL: server.url };
    for (const rule of RULES) await call(env, 'POST', '/v3/sandbox/faults', rule);

    const res = await runCli(['trigger', 'loan.active', '--json'], env);
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout) as { event: { type: string }; objects: Record<string, string> };
    expect(out.event.type).toBe('loan.active');
    expect(res.stderr).toContain(
      '↻ POST /v3/loans: 502 bad_gateway; again in 100 ms with the same Idempotency-Key',
    );
    expect(res.stderr).toMatch(/↻ POST \/v3\/customers\/cust_\w+\/documents: ECONNRESET/);
    expect(res.stderr).toMatch(/↻ GET \/v3\/loans\/ln_\w+: ECONNRESET/);

    // Every rule fired (used-up rules are gone), and there is exactly one of each object.
    expect((await call<{ data: unknown[] }>(env, 'GET', '/v3/sandbox/faults')).data).toEqual([]);
    const customers = await call<{ data: { id: string }[] }>(env, 'GET', '/v3/customers');
    expect(customers.data.map((c) => c.id)).toEqual([out.objects.customer_id]);
    const loans = await call<{ data: { id: string; status: string }[] }>(env, 'GET', '/v3/loans');
    expect(loans.data).toEqual([expect.objectContaining({ id: out.objects.loan_id, status: 'active' })]);
    const customer = await call<{ kyc: { type: string; status: string }[] }>(
      env,
      'GET',
      `/v3/customers/${out.objects.customer_id}`,
    );
    expect(customer.kyc.every((item) => item.status === 'approved')).toBe(true);
    expect(new Set(customer.kyc.map((item) => item.type)).size).toBe(customer.kyc.length);

    // The retried POSTs were answered from the idempotency cache: the same loan, replayed.
    const replays = await call<{
      data: { method: string; path: string; status: number; idempotent_replayed: boolean }[];
    }>(env, 'GET', '/v3/sandbox/requests?method=POST&path=/v3/loans&limit=10');
    expect(replays.data.map((r) => [r.status, r.idempotent_replayed])).toEqual([
      [201, true],
      [502, false],
    ]);
  });
});
