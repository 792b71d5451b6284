import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fixture } from './customers.js';

/**
 * An application's session, as an integrator's app would run it against the provider's staging,
 * for the proxy and replay tests: register → KYC → offer → simulate → loan → sign → disburse → pay.
 * The app talks to `apiBase` (the proxy) with its own credential; what happens outside the API
 * (the customer completes the biometrics capture, the KYC review approves, time passes, the
 * customer signs, the pix goes out, an installment is paid) is done by "the world", which drives the
 * sandbox's control API directly at `worldBase`, never through the proxy: the recording sees those
 * moves only as later answers and webhooks showing new statuses, exactly as with a real staging.
 */

export interface Credential {
  client_id: string;
  client_secret: string;
}

export interface SessionOptions {
  /** Where the app sends its requests (the proxy's base URL, `…/v3`). */
  apiBase: string;
  /** The sandbox itself (`…/v3`), for the world's moves. */
  worldBase: string;
  credential: Credential;
  /** The URL the app registers as its webhook endpoint (the relay's). */
  hookUrl: string;
  cpf: string;
}

export interface SessionResult {
  customerId: string;
  loanId: string;
  /** The statuses the app saw, in order (`customer under_review`, `loan active`…). */
  seen: string[];
}

interface Answer {
  status: number;
  body: Record<string, unknown> & { data?: Array<Record<string, unknown>> };
}

export async function tokenFor(base: string, credential: Credential): Promise<string> {
  const basic = Buffer.from(`${credential.client_id}:${credential.client_secret}`).toString('base64');
  const res = await fetch(`${base}/auth/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}` },
  });
  if (res.status !== 200) throw new Error(`token: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

function caller(base: string, token: string) {
  return async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> => {
    const init: RequestInit = { method, headers: { authorization: `Bearer ${token}`, ...headers } };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
    }
    const res = await fetch(`${base}${path}`, init);
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : {} };
  };
}

/** The app checks the status it expects; a 2xx it does not expect still works for it (a lenient client). */
function expectStatus(answer: Answer, status: number, what: string): Answer['body'] {
  const ok = answer.status === status || (status < 300 && answer.status >= 200 && answer.status < 300);
  if (!ok) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** A new isolated partner on the sandbox at `base` (made by the default partner). */
export async function newPartner(base: string, defaultCredential: Credential): Promise<Credential> {
  const call = caller(base, await tokenFor(base, defaultCredential));
  const created = await call('POST', '/sandbox/partners', { name: 'proxy session' });
  return expectStatus(created, 201, 'partner') as unknown as Credential;
}

export async function runSession(options: SessionOptions): Promise<SessionResult> {
  const app = caller(options.apiBase, await tokenFor(options.apiBase, options.credential));
  const world = caller(options.worldBase, await tokenFor(options.worldBase, options.credential));
  const seen: string[] = [];
  const see = (kind: string, body: Answer['body']) => seen.push(`${kind} ${String(body.status)}`);

  expectStatus(
    await app('POST', '/webhooks/endpoints', { url: options.hookUrl, events: ['*'] }),
    201,
    'endpoint',
  );
  const customer = expectStatus(
    await app(
      'POST',
      '/customers',
      {
        cpf: options.cpf,
        name: 'Maria da Silva',
        email: 'maria@example.com',
        phone: '+5511987654321',
        external_id: 'crm-1',
      },
      { 'idempotency-key': 'session-customer' },
    ),
    201,
    'customer',
  );
  const customerId = String(customer.id);
  const uploads = [
    ['identity_card_front', 'sample.pdf', 'application/pdf'],
    ['identity_card_back', 'sample.jpg', 'image/jpeg'],
    ['selfie', 'sample.png', 'image/png'],
  ] as const;
  for (const [type, file, contentType] of uploads) {
    const form = new FormData();
    form.set('type', type);
    form.set('file', new File([fixture(file)], file, { type: contentType }));
    expectStatus(await app('POST', `/customers/${customerId}/documents`, form), 201, `upload ${type}`);
  }
  expectStatus(await app('POST', `/customers/${customerId}/biometrics`), 200, 'biometrics');
  // The customer completes the capture on the hosted page.
  expectStatus(
    await world('POST', `/sandbox/customers/${customerId}/biometrics/complete`, { outcome: 'approved' }),
    200,
    'capture',
  );
  see('customer', expectStatus(await app('GET', `/customers/${customerId}`), 200, 'customer'));
  // The KYC review approves.
  expectStatus(await world('POST', `/sandbox/customers/${customerId}/kyc/approve`), 200, 'kyc approve');
  see('customer', expectStatus(await app('GET', `/customers/${customerId}`), 200, 'customer'));
  const offers = expectStatus(
    await app('GET', `/customers/${customerId}/credit-offers?status=available`),
    200,
    'offers',
  );
  const offer = offers.data?.[0];
  if (!offer) throw new Error('no offer');
  const simulation = expectStatus(
    await app('POST', `/credit-offers/${String(offer.id)}/simulations`, {
      requested_amount: '3000.00',
      installment_count: offer.installments ?? offer.min_installments,
    }),
    201,
    'simulation',
  );
  const loan = expectStatus(
    await app(
      'POST',
      '/loans',
      { credit_offer_id: offer.id, simulation_id: simulation.id },
      { 'idempotency-key': 'session-loan' },
    ),
    201,
    'loan',
  );
  const loanId = String(loan.id);
  // Time passes: the contract is generated and sent for signature.
  expectStatus(await world('POST', '/sandbox/clock/advance', { by: '5s' }), 200, 'advance');
  see('loan', expectStatus(await app('GET', `/loans/${loanId}`), 200, 'loan'));
  // The customer signs.
  expectStatus(await world('POST', `/sandbox/loans/${loanId}/sign`), 200, 'sign');
  see('loan', expectStatus(await app('GET', `/loans/${loanId}`), 200, 'loan'));
  // The pix goes out and is confirmed.
  expectStatus(await world('POST', '/sandbox/clock/advance', { by: '10s' }), 200, 'advance');
  see('loan', expectStatus(await app('GET', `/loans/${loanId}`), 200, 'loan'));
  expectStatus(await app('GET', `/loans/${loanId}/transactions`), 200, 'transactions');
  // The customer pays the first installment.
  expectStatus(
    await world('POST', `/sandbox/loans/${loanId}/payments`, {
      amount: simulation.installments_value,
      installment_number: 1,
    }),
    200,
    'payment',
  );
  const after = expectStatus(await app('GET', `/loans/${loanId}/transactions`), 200, 'transactions');
  const paid = after.data?.find((tx) => tx.installment_number === 1);
  seen.push(`transaction ${String(paid?.status)}`);
  return { customerId, loanId, seen };
}

/** The app's webhook handler: answers 200 and keeps what it got; `until` waits for a delivery. */
export interface AppReceiver {
  url: string;
  received: Array<{ headers: Record<string, string>; body: string }>;
  /** Resolves once `count` deliveries arrived (event-driven, no polling). */
  untilCount(count: number): Promise<void>;
  close(): Promise<void>;
}

export async function startAppReceiver(): Promise<AppReceiver> {
  const received: AppReceiver['received'] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: req.headers as Record<string, string>, body });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      for (const waiter of waiters.splice(0)) {
        if (received.length >= waiter.count) waiter.resolve();
        else waiters.push(waiter);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    untilCount: (count) =>
      new Promise<void>((resolve) => {
        if (received.length >= count) resolve();
        else waiters.push({ count, resolve });
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
