// Every write operation of the OpenAPI document (POST, PUT, PATCH, DELETE) as a case of
// bench/operations.ts, beside the four writes the issue names (made there). Each runs on a partner
// of its own, made by the bench partner (no webhook endpoint unless the operation is about one), so
// what one operation leaves behind does not weigh on another. A write that can be repeated is sent
// as it is for a timed round; one that consumes what it acts on (a customer to approve, a loan to
// sign, a snapshot to delete) is sent `amount` times a round, each request on a resource of its own
// made before the round (`prepare`), outside what is measured. `coveredWrites` fails on an
// operation of the document without a case, so the bench walks the whole document.
import { readFileSync } from 'node:fs';
import { basicOf, call, cpfOf, type Session, session } from '../test/support/operation-data.js';

export interface WriteCase {
  /** `METHOD /template`, as the document names the operation. */
  label: string;
  method: string;
  headers: () => Record<string, string>;
  /** The next request's target (from the server's root) and body. */
  next: () => { path: string; body?: string | Buffer };
  /** How the bare app reads the body before it answers. */
  parse: 'json' | 'form' | 'none';
  /** Requests per round when each consumes a resource `prepare` makes before the round. */
  amount?: number;
  prepare?: (n: number) => Promise<void>;
}

/** Requests a round for an operation that consumes what it acts on. */
const CONSUMED = Number(process.env.CONSUMED ?? 100);
/** At most 20 snapshots and 50 fault rules a partner: their rounds are smaller. */
const SNAPSHOTS_A_ROUND = 15;
const FAULT_RULES_A_ROUND = 45;
/** Scenario runs a round: each moves its partner's clock (see below). */
const SCENARIO_RUNS_A_ROUND = 30;

const JSON_TYPE = { 'content-type': 'application/json' };
const PNG = readFileSync(new URL('../fixtures/sample.png', import.meta.url));
const BOUNDARY = 'benchboundary7MA4YWxkTrZu0gW';
const SELFIE = Buffer.concat([
  Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="type"\r\n\r\nselfie\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="s.png"\r\nContent-Type: image/png\r\n\r\n`,
  ),
  PNG,
  Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
]);

let serial = Math.floor(Math.random() * 100_000_000);

/** Makes `n` things, eight at a time. */
async function many<T>(n: number, one: () => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  while (out.length < n)
    out.push(...(await Promise.all(Array.from({ length: Math.min(8, n - out.length) }, one))));
  return out;
}

/** A partner of its own, made by the bench partner, optionally through a scenario. */
async function partner(s: Session, name: string, scenario?: string): Promise<Session> {
  const made = await call<{ client_id: string; client_secret: string }>(s, 'POST', '/sandbox/partners', {
    name,
  });
  const p = await session(s.base, basicOf(made.client_id, made.client_secret));
  if (scenario) {
    const run = await call<{ captured: Record<string, { id: string }> }>(
      p,
      'POST',
      `/sandbox/scenarios/${scenario}/runs`,
      {},
    );
    await p.refresh();
    for (const [key, value] of Object.entries(run.captured)) p.ids[`${key}_id`] = value.id;
  }
  return p;
}

/** A queue of ids `prepare` fills and the requests take, one each. */
function queue(make: () => Promise<string>) {
  const ids: string[] = [];
  return {
    prepare: async (n: number) => {
      ids.push(...(await many(n, make)));
    },
    take: (): string => {
      const id = ids.shift();
      if (id === undefined) throw new Error('a round used more resources than were made for it');
      return id;
    },
  };
}

export async function writeCases(s: Session): Promise<WriteCase[]> {
  const out: WriteCase[] = [];
  const add = (
    p: Session,
    label: string,
    path: (() => string) | string,
    body?: (() => unknown) | unknown,
    extra: Partial<WriteCase> = {},
  ) => {
    const method = label.split(' ')[0] as string;
    const target = typeof path === 'string' ? () => path : path;
    const text =
      body === undefined ? undefined : () => JSON.stringify(typeof body === 'function' ? body() : body);
    out.push({
      label,
      method,
      headers: () => ({ ...p.headers(), ...(text ? JSON_TYPE : {}) }),
      next: () => ({ path: `/v3${target()}`, ...(text && { body: text() }) }),
      parse: text ? 'json' : 'none',
      ...extra,
    });
  };
  const newCustomer = (p: Session) => async () =>
    (await call<{ id: string }>(p, 'POST', '/customers', { cpf: cpfOf(serial++), name: 'Bench Kyc' })).id;
  const upload = async (p: Session, id: string) => {
    const res = await fetch(`${p.base}/customers/${id}/documents`, {
      method: 'POST',
      headers: { ...p.headers(), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      body: SELFIE,
    });
    if (res.status !== 201) throw new Error(`document upload: ${res.status} ${await res.text()}`);
  };

  // Credentials and tokens.
  const auth = await partner(s, 'bench-auth');
  out.push({
    label: 'POST /auth/token',
    method: 'POST',
    headers: () => ({ authorization: auth.basic, 'content-type': 'application/x-www-form-urlencoded' }),
    next: () => ({ path: '/v3/auth/token', body: 'grant_type=client_credentials' }),
    parse: 'form',
  });
  add(auth, 'POST /auth/credentials', '/auth/credentials', { name: 'bench' }, { amount: CONSUMED });
  const credentials = queue(
    async () =>
      (await call<{ client_id: string }>(auth, 'POST', '/auth/credentials', { name: 'gone' })).client_id,
  );
  add(
    auth,
    'DELETE /auth/credentials/{client_id}',
    () => `/auth/credentials/${credentials.take()}`,
    undefined,
    {
      amount: CONSUMED,
      prepare: credentials.prepare,
    },
  );
  add(s, 'POST /sandbox/partners', '/sandbox/partners', { name: 'bench-made' }, { amount: CONSUMED });
  const lived = await call<{ id: string }>(s, 'POST', '/sandbox/partners', { name: 'bench-lifetime' });
  add(s, 'PATCH /sandbox/partners/{partner_id}', `/sandbox/partners/${lived.id}`, { expires_in: 3600 });
  const doomed = queue(
    async () => (await call<{ id: string }>(s, 'POST', '/sandbox/partners', { name: 'bench-gone' })).id,
  );
  add(s, 'DELETE /sandbox/partners/{partner_id}', () => `/sandbox/partners/${doomed.take()}`, undefined, {
    amount: CONSUMED,
    prepare: doomed.prepare,
  });

  // The partner clock.
  const clock = await partner(s, 'bench-clock');
  // Advancing a second a request moves the partner clock past the token's expiry (3,600 s of the
  // partner clock) within one timed round: a fresh token before each round, and counted rounds.
  const renew = { prepare: async () => clock.refresh() };
  add(clock, 'POST /sandbox/clock/freeze', '/sandbox/clock/freeze', undefined, renew);
  add(clock, 'POST /sandbox/clock/resume', '/sandbox/clock/resume', undefined, renew);
  add(
    clock,
    'POST /sandbox/clock/advance',
    '/sandbox/clock/advance',
    { by: '1s' },
    {
      ...renew,
      amount: Math.min(CONSUMED, 1000),
    },
  );
  add(await partner(s, 'bench-reset'), 'POST /sandbox/reset', '/sandbox/reset');

  // Snapshots, of a partner with one active customer.
  const snap = await partner(s, 'bench-snap', 'active-customer');
  await call(snap, 'POST', '/sandbox/snapshots', { name: 'kept' });
  add(snap, 'POST /sandbox/snapshots', '/sandbox/snapshots', { name: 'again', replace: true });
  add(snap, 'POST /sandbox/snapshots/{name}/restore', '/sandbox/snapshots/kept/restore');
  const exported = await (
    await fetch(`${snap.base}/sandbox/snapshots/kept/export`, { headers: snap.headers() })
  ).text();
  out.push({
    label: 'POST /sandbox/snapshots/import',
    method: 'POST',
    headers: () => ({ ...snap.headers(), ...JSON_TYPE }),
    next: () => ({ path: '/v3/sandbox/snapshots/import?name=imported&replace=true', body: exported }),
    parse: 'json',
  });
  const snapshots = queue(async () => {
    const name = `gone-${serial++}`;
    await call(snap, 'POST', '/sandbox/snapshots', { name });
    return name;
  });
  add(snap, 'DELETE /sandbox/snapshots/{name}', () => `/sandbox/snapshots/${snapshots.take()}`, undefined, {
    amount: SNAPSHOTS_A_ROUND,
    prepare: async (n) => {
      // Those the import made count too: only `kept` and `again` stay.
      for (const name of ['imported'])
        await call(snap, 'DELETE', `/sandbox/snapshots/${name}`, undefined, [200, 404]);
      await snapshots.prepare(n);
    },
  });

  // KYC: each request on a customer of its own.
  const kyc = await partner(s, 'bench-kyc');
  const uploads = queue(newCustomer(kyc));
  out.push({
    label: 'POST /customers/{customer_id}/documents',
    method: 'POST',
    headers: () => ({ ...kyc.headers(), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }),
    next: () => ({ path: `/v3/customers/${uploads.take()}/documents`, body: SELFIE }),
    parse: 'form',
    amount: CONSUMED,
    prepare: uploads.prepare,
  });
  const captures = queue(newCustomer(kyc));
  add(
    kyc,
    'POST /customers/{customer_id}/biometrics',
    () => `/customers/${captures.take()}/biometrics`,
    undefined,
    {
      amount: CONSUMED,
      prepare: captures.prepare,
    },
  );
  const approvals = queue(newCustomer(kyc));
  add(
    kyc,
    'POST /sandbox/customers/{customer_id}/kyc/approve',
    () => `/sandbox/customers/${approvals.take()}/kyc/approve`,
    undefined,
    { amount: CONSUMED, prepare: approvals.prepare },
  );
  const withSelfie = () =>
    queue(async () => {
      const id = await newCustomer(kyc)();
      await upload(kyc, id);
      return id;
    });
  const rejections = withSelfie();
  add(
    kyc,
    'POST /sandbox/customers/{customer_id}/kyc/{type}/reject',
    () => `/sandbox/customers/${rejections.take()}/kyc/selfie/reject`,
    { message: 'Face not visible.' },
    { amount: CONSUMED, prepare: rejections.prepare },
  );
  const corrections = queue(newCustomer(kyc));
  add(
    kyc,
    'POST /sandbox/customers/{customer_id}/kyc/{type}/request-correction',
    () => `/sandbox/customers/${corrections.take()}/kyc/email/request-correction`,
    { message: 'Take it again in daylight.' },
    { amount: CONSUMED, prepare: corrections.prepare },
  );
  const completions = queue(async () => {
    const id = await newCustomer(kyc)();
    await call(kyc, 'POST', `/customers/${id}/biometrics`);
    return id;
  });
  add(
    kyc,
    'POST /sandbox/customers/{customer_id}/biometrics/complete',
    () => `/sandbox/customers/${completions.take()}/biometrics/complete`,
    { outcome: 'approved' },
    { amount: CONSUMED, prepare: completions.prepare },
  );

  // Webhook endpoints (their receiver is never called: nothing on this partner makes events).
  const hooks = await partner(s, 'bench-hooks');
  const url = 'http://127.0.0.1:9/never';
  const endpoint = (await call<{ id: string }>(hooks, 'POST', '/webhooks/endpoints', { url })).id;
  add(hooks, 'POST /webhooks/endpoints', '/webhooks/endpoints', { url }, { amount: CONSUMED });
  add(hooks, 'PATCH /webhooks/endpoints/{webhook_endpoint_id}', `/webhooks/endpoints/${endpoint}`, {
    events: ['customer.*'],
  });
  const endpoints = queue(
    async () => (await call<{ id: string }>(hooks, 'POST', '/webhooks/endpoints', { url })).id,
  );
  add(
    hooks,
    'DELETE /webhooks/endpoints/{webhook_endpoint_id}',
    () => `/webhooks/endpoints/${endpoints.take()}`,
    undefined,
    { amount: CONSUMED, prepare: endpoints.prepare },
  );
  add(
    hooks,
    'POST /webhooks/endpoints/{webhook_endpoint_id}/secret/rotate',
    `/webhooks/endpoints/${endpoint}/secret/rotate`,
    { expire_current_in: 0 },
  );
  add(
    hooks,
    'PUT /sandbox/webhooks/endpoints/{webhook_endpoint_id}/chaos',
    `/sandbox/webhooks/endpoints/${endpoint}/chaos`,
    {
      duplicate_rate: 0,
      drop_rate: 0,
    },
  );
  add(
    hooks,
    'DELETE /sandbox/webhooks/endpoints/{webhook_endpoint_id}/chaos',
    `/sandbox/webhooks/endpoints/${endpoint}/chaos`,
  );
  add(s, 'POST /sandbox/events/{event_id}/redeliver', `/sandbox/events/${s.ids.event_id}/redeliver`, {
    endpoint_id: s.ids.webhook_endpoint_id,
  });

  // Credit: offers and loans of a customer of its own, a loan taking payments.
  const credit = await partner(s, 'bench-credit', 'happy-path');
  const customer = credit.ids.customer_id as string;
  const offerOf = (p: Session) => async () =>
    await call<{ id: string; min_amount: string }>(
      p,
      'POST',
      `/sandbox/customers/${p.ids.customer_id}/credit-offers`,
      { installments: 6 },
    );
  const offer = offerOf(credit);
  add(
    credit,
    'POST /sandbox/customers/{customer_id}/credit-offers',
    `/sandbox/customers/${customer}/credit-offers`,
    {
      installments: 6,
    },
  );
  const offers = queue(async () => (await offer()).id);
  add(
    credit,
    'POST /sandbox/credit-offers/{credit_offer_id}/expire',
    () => `/sandbox/credit-offers/${offers.take()}/expire`,
    undefined,
    { amount: CONSUMED, prepare: offers.prepare },
  );
  const loan = (p: Session) => async () => {
    const o = await offerOf(p)();
    const simulation = await call<{ id: string }>(p, 'POST', `/credit-offers/${o.id}/simulations`, {
      requested_amount: o.min_amount,
      installment_count: 6,
    });
    const made = await call<{ id: string }>(p, 'POST', '/loans', {
      credit_offer_id: o.id,
      simulation_id: simulation.id,
    });
    return made.id;
  };
  for (const [action, body] of [['cancel'], ['fail', { stage: 'contract' }]] as const) {
    const loans = queue(loan(credit));
    add(
      credit,
      `POST /sandbox/loans/{loan_id}/${action}`,
      () => `/sandbox/loans/${loans.take()}/${action}`,
      body,
      {
        amount: CONSUMED,
        prepare: loans.prepare,
      },
    );
  }
  // Signed or declined once awaiting signatures (a second after the contract): a customer who is no
  // magic profile (it would answer by itself), the partner clock moved on twice.
  const signer = await partner(s, 'bench-sign', 'active-customer');
  for (const action of ['sign', 'decline']) {
    const loans = queue(loan(signer));
    add(
      signer,
      `POST /sandbox/loans/{loan_id}/${action}`,
      () => `/sandbox/loans/${loans.take()}/${action}`,
      undefined,
      {
        amount: CONSUMED,
        prepare: async (n) => {
          await loans.prepare(n);
          // processing → contract_generated, then → awaiting_signatures a second later.
          for (const by of ['2s', '2s']) await call(signer, 'POST', '/sandbox/clock/advance', { by });
        },
      },
    );
  }
  add(credit, 'POST /sandbox/loans/{loan_id}/payments', `/sandbox/loans/${credit.ids.loan_id}/payments`, {
    amount: '0.01',
  });

  // Scenarios and provider states (each makes a customer and more: counted).
  const runs = await partner(s, 'bench-runs');
  // Each run moves the partner clock by about a minute (the KYC review): 30 a round and a fresh
  // token before each stay within the token's 3,600 s.
  add(
    runs,
    'POST /sandbox/scenarios/{name}/runs',
    '/sandbox/scenarios/active-customer/runs',
    {},
    {
      amount: SCENARIO_RUNS_A_ROUND,
      prepare: async () => runs.refresh(),
    },
  );
  // A provider state moves its partner's clock (expiring bearer tokens): a partner of its own,
  // called with its client credentials, as the Pact verifier calls it.
  const states = await partner(s, 'bench-states');
  out.push({
    label: 'POST /sandbox/provider-states',
    method: 'POST',
    headers: () => ({ authorization: states.basic, ...JSON_TYPE }),
    next: () => ({
      path: '/v3/sandbox/provider-states',
      body: JSON.stringify({ state: 'a loan awaiting signature' }),
    }),
    parse: 'json',
    amount: CONSUMED,
  });

  // Fault rules (at most 50 a partner), on a path nothing calls.
  const faults = await partner(s, 'bench-faults');
  const rule = { match: { method: 'post', path: '/loans' }, action: { status: 503 }, times: 1 };
  const clear = async () => {
    await call(faults, 'DELETE', '/sandbox/faults');
  };
  add(faults, 'POST /sandbox/faults', '/sandbox/faults', rule, {
    amount: FAULT_RULES_A_ROUND,
    prepare: clear,
  });
  add(faults, 'DELETE /sandbox/faults', '/sandbox/faults');
  const rules = queue(async () => (await call<{ id: string }>(faults, 'POST', '/sandbox/faults', rule)).id);
  add(faults, 'DELETE /sandbox/faults/{fault_id}', () => `/sandbox/faults/${rules.take()}`, undefined, {
    amount: FAULT_RULES_A_ROUND,
    prepare: async (n) => {
      await clear();
      await rules.prepare(n);
    },
  });
  return out;
}

/** Fails on a write operation of the document that has no case (the bench walks all of them). */
export function coveredWrites(
  document: { paths: Record<string, Record<string, unknown>> },
  labels: readonly string[],
): void {
  const have = new Set(labels);
  const missing: string[] = [];
  for (const [template, operations] of Object.entries(document.paths)) {
    for (const method of Object.keys(operations)) {
      if (!['post', 'put', 'patch', 'delete'].includes(method)) continue;
      const label = `${method.toUpperCase()} ${template}`;
      if (!have.has(label)) missing.push(label);
    }
  }
  if (missing.length > 0) throw new Error(`no bench case for: ${missing.join(', ')}`);
}
