// biome-ignore-all lint/suspicious/noTemplateCurlyInString: Pact provider-state expressions are written ${name}
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MatchersV3, PactV3, Verifier, type VerifierOptions } from '@pact-foundation/pact';
import { Verifier as CoreVerifier } from '@pact-foundation/pact-core';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/testing/index.js';

// The real Pact tools against a running sandbox: a consumer test writes a pact whose interactions
// need provider states and take ids from them (fromProviderState); the real Verifier replays it
// with the sandbox's state change URL. A pact with a wrong expectation must fail.

// The Pact core would report usage over the network: this test runs on loopback only.
process.env.PACT_DO_NOT_TRACK = 'true';
const { fromProviderState, like, regex } = MatchersV3;
const BEARER = regex(/^Bearer svc_at_\S+$/, 'Bearer svc_at_example');

let sandbox: Sandbox;
let pactDir: string;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: 'pact', startTime: '2026-03-02T12:00:00Z' });
  pactDir = mkdtempSync(join(tmpdir(), 'pacts-'));
});
afterAll(async () => {
  await sandbox?.stop();
});

/** A partner app's client, as a consumer test exercises it against the Pact mock server. */
async function getJson(baseUrl: string, path: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${baseUrl}${path}`, { headers: { authorization: 'Bearer svc_at_example' } });
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  return (await res.json()) as Record<string, unknown>;
}

type StateChange = (params?: unknown) => Promise<Record<string, string | number | boolean | null>>;
type StateHandlers = Record<string, { setup: StateChange; teardown: StateChange }>;

/**
 * Pact JS's current way to set up provider states (`stateHandlers`; `providerStatesSetupUrl` is
 * deprecated): one handler per state named in the pacts, each sending the verifier's state change
 * to the sandbox's state change URL with the client credentials (HTTP Basic, never expiring,
 * whatever the states do to the clock). Its answer is what `fromProviderState` injects.
 */
function sandboxStateHandlers(pactFiles: string[]): StateHandlers {
  const basic = `Basic ${Buffer.from(`${sandbox.clientId}:${sandbox.clientSecret}`).toString('base64')}`;
  const change = (state: string, action: 'setup' | 'teardown') => async (params?: unknown) => {
    const res = await fetch(new URL('/v3/sandbox/provider-states', sandbox.url), {
      method: 'POST',
      headers: { authorization: basic, 'content-type': 'application/json' },
      body: JSON.stringify({ state, action, params: params ?? {} }),
    });
    if (!res.ok) throw new Error(`provider state "${state}" (${action}): ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, string | number | boolean | null>;
  };
  const states = new Set<string>(
    pactFiles.flatMap((file) =>
      (
        JSON.parse(readFileSync(file, 'utf8')) as { interactions: { providerStates?: { name: string }[] }[] }
      ).interactions.flatMap((interaction) => (interaction.providerStates ?? []).map((state) => state.name)),
    ),
  );
  return Object.fromEntries(
    [...states].map((state) => [
      state,
      { setup: change(state, 'setup'), teardown: change(state, 'teardown') },
    ]),
  );
}

function verifier(consumer: string) {
  const pactUrls = [join(pactDir, `${consumer}-credit-sandbox.json`)];
  return new Verifier({
    provider: 'credit-sandbox',
    providerBaseUrl: sandbox.url,
    pactUrls,
    // Pact JS 16 types `stateHandlers` as HTTP and message state handlers at once, which no
    // `{setup, teardown}` handler can be; its HTTP proxy takes this form (setupStates.js).
    stateHandlers: sandboxStateHandlers(pactUrls) as unknown as VerifierOptions['stateHandlers'],
    // A fresh token for every replayed request: each state moved the partner clock.
    requestFilter: (req: { headers: Record<string, unknown> }, _res: unknown, next: () => void) => {
      void sandbox.token().then((token) => {
        req.headers.authorization = `Bearer ${token}`;
        next();
      });
    },
    logLevel: 'error',
  });
}

// One retry per test: under CPU contention Pact's mock server (its Rust core) can answer a request
// and still report it "expected but not received", its match bookkeeping racing the verification
// read (pact-foundation/pact-js#1835; about 1 full `npm test` in 10 on a loaded 2-core machine,
// in any of the three tests' consumer steps). Every assertion holds on the retry; a pact that is
// really wrong, or a verification that really passes or fails, does so both times.
describe('Pact: consumer pact with provider states, verified by the real Verifier against the sandbox', {
  retry: 1,
}, () => {
  it('writes a pact with provider states and fromProviderState values', async () => {
    // One interaction per mock session: a provider-state path matches any path by type.
    const consumer = () =>
      new PactV3({ consumer: 'partner-app', provider: 'credit-sandbox', dir: pactDir, logLevel: 'error' });
    await consumer()
      .given('a customer with an overdue installment', { days: 40 })
      .uponReceiving('the installments of a loan with one overdue')
      .withRequest({
        method: 'GET',
        path: fromProviderState('/v3/loans/${loan_id}/transactions', '/v3/loans/ln_example/transactions'),
        headers: { authorization: BEARER },
      })
      .willRespondWith({
        status: 200,
        body: {
          data: MatchersV3.atLeastLike(
            { loan_id: fromProviderState('${loan_id}', 'ln_example'), status: like('overdue') },
            1,
          ),
        },
      })
      .executeTest(async (mock) => {
        expect((await getJson(mock.url, '/v3/loans/ln_example/transactions')).data).toHaveLength(1);
      });
    await consumer()
      .given('a loan awaiting signature')
      .uponReceiving('a loan waiting for the signature')
      .withRequest({
        method: 'GET',
        path: fromProviderState('/v3/loans/${loan_id}', '/v3/loans/ln_example'),
        headers: { authorization: BEARER },
      })
      .willRespondWith({
        status: 200,
        body: {
          id: fromProviderState('${loan_id}', 'ln_example'),
          customer_id: fromProviderState('${customer_id}', 'cust_example'),
          status: 'awaiting_signatures',
        },
      })
      .executeTest(async (mock) => {
        expect((await getJson(mock.url, '/v3/loans/ln_example')).status).toBe('awaiting_signatures');
      });
    await consumer()
      .given('a customer whose KYC was rejected', { document: 'selfie' })
      .uponReceiving('a customer asked to send the selfie again')
      .withRequest({
        method: 'GET',
        path: fromProviderState('/v3/customers/${customer_id}', '/v3/customers/cust_example'),
        headers: { authorization: BEARER },
      })
      .willRespondWith({ status: 200, body: { id: like('cust_example'), status: 'pending_kyc' } })
      .executeTest(async (mock) => {
        expect((await getJson(mock.url, '/v3/customers/cust_example')).status).toBe('pending_kyc');
      });
    const written = JSON.parse(readFileSync(join(pactDir, 'partner-app-credit-sandbox.json'), 'utf8'));
    const states = written.interactions.map(
      (i: { providerStates: { name: string }[] }) => i.providerStates[0]?.name,
    );
    expect(states.sort()).toEqual([
      'a customer whose KYC was rejected',
      'a customer with an overdue installment',
      'a loan awaiting signature',
    ]);
    expect(JSON.stringify(written)).toContain('"type":"ProviderState"');
  });

  it('passes verification: every state is set up by its scenario and its values are injected', async () => {
    const output = await verifier('partner-app').verifyProvider();
    expect(output).toContain('"result":true');
    // Teardown put the partner back after each interaction: nothing the states made is left.
    expect((await sandbox.api<{ data: unknown[] }>('GET', '/customers')).data).toEqual([]);
  });

  it('passes verification with the state change URL itself (client credentials in it, sent as HTTP Basic)', async () => {
    // What Pact JVM, pact_verifier_cli, Pact Go and Pact Python do: the Rust verifier core calls
    // the URL. A state that moves the clock by seconds only, so one bearer header serves the run.
    const pact = new PactV3({
      consumer: 'url-app',
      provider: 'credit-sandbox',
      dir: pactDir,
      logLevel: 'error',
    });
    await pact
      .given('a loan awaiting signature')
      .uponReceiving('a loan waiting for the signature, state set up through the URL')
      .withRequest({
        method: 'GET',
        path: fromProviderState('/v3/loans/${loan_id}', '/v3/loans/ln_example'),
        headers: { authorization: BEARER },
      })
      .willRespondWith({ status: 200, body: { id: like('ln_example'), status: 'awaiting_signatures' } })
      .executeTest(async (mock) => {
        expect((await getJson(mock.url, '/v3/loans/ln_example')).status).toBe('awaiting_signatures');
      });
    const stateUrl = new URL('/v3/sandbox/provider-states', sandbox.url);
    stateUrl.username = sandbox.clientId;
    stateUrl.password = sandbox.clientSecret;
    const output = await new CoreVerifier({
      providerBaseUrl: sandbox.url,
      pactUrls: [join(pactDir, 'url-app-credit-sandbox.json')],
      providerStatesSetupUrl: stateUrl.toString(),
      customProviderHeaders: [`authorization: Bearer ${await sandbox.token()}`],
      logLevel: 'error',
    }).verify();
    expect(output).toContain('"result":true');
    const calls = await sandbox.api<{ data: { status: number }[] }>(
      'GET',
      '/sandbox/requests?path=/v3/sandbox/provider-states&limit=2',
    );
    expect(calls.data.map((call) => call.status)).toEqual([200, 200]);
    expect((await sandbox.api<{ data: unknown[] }>('GET', '/customers')).data).toEqual([]);
  });

  it('fails verification when an expectation is wrong', async () => {
    const pact = new PactV3({
      consumer: 'broken-app',
      provider: 'credit-sandbox',
      dir: pactDir,
      logLevel: 'error',
    });
    pact
      .given('an active loan')
      .uponReceiving('an active loan, wrongly expected to be finished')
      .withRequest({
        method: 'GET',
        path: fromProviderState('/v3/loans/${loan_id}', '/v3/loans/ln_example'),
        headers: { authorization: BEARER },
      })
      .willRespondWith({ status: 200, body: { id: like('ln_example'), status: 'finished' } });
    await pact.executeTest(async (mock) => {
      expect((await getJson(mock.url, '/v3/loans/ln_example')).status).toBe('finished');
    });
    expect(readdirSync(pactDir)).toContain('broken-app-credit-sandbox.json');
    await expect(verifier('broken-app').verifyProvider()).rejects.toThrow(/[Vv]erif/);
    // It failed on the body, not on the way there: the state was set up and the replayed request,
    // with the injected loan id and a fresh token, answered 200 (the request inspector saw it).
    const seen = await sandbox.api<{ data: { method: string; path: string; status: number }[] }>(
      'GET',
      '/sandbox/requests?method=GET&path=/v3/loans/ln_&limit=1',
    );
    expect(seen.data[0]?.status).toBe(200);
    expect(seen.data[0]?.path).toMatch(/^\/v3\/loans\/ln_\w+$/);
  });
});
