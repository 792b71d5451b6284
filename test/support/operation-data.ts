// The data every operation of the OpenAPI document needs, made through the API itself on a running
// sandbox: a loan with installments (the happy-path scenario), a webhook endpoint with deliveries,
// a document, a snapshot, inspector entries. `readPaths` gives a concrete path for every GET
// operation of the document and fails on one it cannot name, so whoever walks them (the guard test
// test/e2e/request-path-identity.test.ts, bench/operations.ts) walks the whole document.
import { readFileSync } from 'node:fs';

/** The HTTP Basic header of a credential. */
export function basicOf(clientId: string, secret: string): string {
  return `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;
}

export interface Session {
  base: string;
  headers: () => Record<string, string>;
  refresh: () => Promise<void>;
  ids: Record<string, string>;
  /** The partner's credential as an HTTP Basic header. */
  basic: string;
}

export async function session(base: string, basic: string): Promise<Session> {
  let token = '';
  const refresh = async () => {
    const res = await fetch(`${base}/auth/token`, { method: 'POST', headers: { authorization: basic } });
    token = ((await res.json()) as { access_token: string }).access_token;
  };
  await refresh();
  return { base, headers: () => ({ authorization: `Bearer ${token}` }), refresh, ids: {}, basic };
}

/** A call on the session's partner; a token the scenario's clock moves expired is renewed once. */
export async function call<T = Record<string, unknown>>(
  s: Session,
  method: string,
  path: string,
  body?: unknown,
  expected = [200, 201],
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`${s.base}${path}`, {
      method,
      headers: { ...s.headers(), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status === 401 && attempt === 0) {
      await s.refresh();
      continue;
    }
    if (!expected.includes(res.status))
      throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : {}) as T;
  }
}

/** A valid CPF from 9 digits (check digits computed), never one of the magic profiles. */
export function cpfOf(nine: number): string {
  const d = String(100_000_000 + (nine % 800_000_000))
    .split('')
    .map(Number);
  for (const n of [9, 10]) {
    let sum = 0;
    for (let k = 0; k < n; k++) sum += (d[k] as number) * (n + 1 - k);
    const r = (sum * 10) % 11;
    d.push(r === 10 ? 0 : r);
  }
  return d.join('');
}

/** Seeds the partner with something for every operation to read; fills `s.ids`. */
export async function seed(s: Session, receiverUrl: string): Promise<void> {
  const endpoint = await call<{ id: string }>(s, 'POST', '/webhooks/endpoints', {
    url: receiverUrl,
    description: 'bench receiver',
  });
  s.ids.webhook_endpoint_id = endpoint.id;
  const run = await call<{ captured: Record<string, { id: string }> }>(
    s,
    'POST',
    '/sandbox/scenarios/happy-path/runs',
    {},
  );
  await s.refresh();
  s.ids.customer_id = run.captured.customer?.id as string;
  s.ids.credit_offer_id = run.captured.offer?.id as string;
  s.ids.loan_id = run.captured.loan?.id as string;
  // More customers, so a list page is a full page of 25.
  for (let i = 0; i < 30; i++) {
    await call(s, 'POST', '/customers', {
      cpf: cpfOf(7_000_000 + i * 7919),
      name: `Bench ${i}`,
      email: `b${i}@example.com`,
    });
  }
  const pending = await call<{ id: string }>(s, 'POST', '/customers', {
    cpf: cpfOf(8_123_457),
    name: 'Doc Holder',
  });
  const form = new FormData();
  form.set('type', 'identity_card_front');
  form.set(
    'file',
    new Blob([readFileSync(new URL('../../fixtures/sample.png', import.meta.url))], { type: 'image/png' }),
    'id.png',
  );
  const upload = await fetch(`${s.base}/customers/${pending.id}/documents`, {
    method: 'POST',
    headers: s.headers(),
    body: form,
  });
  if (upload.status !== 201) throw new Error(`document upload: ${upload.status} ${await upload.text()}`);
  s.ids.document_customer_id = pending.id;
  s.ids.document_id = ((await upload.json()) as { id: string }).id;
  await call(s, 'POST', '/sandbox/snapshots', { name: 'bench' });
  s.ids.name = 'bench';
  // Deliveries are made in the background: wait for the first.
  for (let i = 0; i < 200; i++) {
    const deliveries = await call<{ data: { id: string }[] }>(s, 'GET', '/sandbox/deliveries?limit=1');
    if (deliveries.data[0]) {
      s.ids.delivery_id = deliveries.data[0].id;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (!s.ids.delivery_id) throw new Error('no webhook delivery was made');
  const events = await call<{ data: { id: string }[] }>(s, 'GET', '/sandbox/events?limit=1');
  s.ids.event_id = events.data[0]?.id as string;
  const requests = await call<{ data: { id: string }[] }>(s, 'GET', '/sandbox/requests?limit=1');
  s.ids.request_id = requests.data[0]?.id as string;
}

/**
 * A partner of its own for the writes (created by the bench partner): an active customer with an
 * offer, a pending customer to update, and no webhook endpoint, so a write measures the operation,
 * not the webhook sends its events would start.
 */
export async function writer(s: Session): Promise<Session> {
  const partner = await call<{ client_id: string; client_secret: string }>(s, 'POST', '/sandbox/partners', {
    name: 'bench-writer',
  });
  const basic = `Basic ${Buffer.from(`${partner.client_id}:${partner.client_secret}`).toString('base64')}`;
  const w = await session(s.base, basic);
  const run = await call<{ captured: Record<string, { id: string }> }>(
    w,
    'POST',
    '/sandbox/scenarios/active-customer/runs',
    {},
  );
  await w.refresh();
  w.ids.customer_id = run.captured.customer?.id as string;
  const pending = await call<{ id: string }>(w, 'POST', '/customers', {
    cpf: cpfOf(8_223_457),
    name: 'To Update',
  });
  w.ids.pending_customer_id = pending.id;
  return w;
}

/** Offers with their latest simulation, one per `POST /loans` the bench will send. */
export async function loanTerms(
  s: Session,
  count: number,
): Promise<{ credit_offer_id: string; simulation_id: string; amount: string }[]> {
  const one = async () => {
    const offer = await call<{ id: string; min_amount: string }>(
      s,
      'POST',
      `/sandbox/customers/${s.ids.customer_id}/credit-offers`,
      { installments: 6 },
    );
    const simulation = await call<{ id: string }>(s, 'POST', `/credit-offers/${offer.id}/simulations`, {
      requested_amount: offer.min_amount,
      installment_count: 6,
    });
    return { credit_offer_id: offer.id, simulation_id: simulation.id, amount: offer.min_amount };
  };
  const terms: { credit_offer_id: string; simulation_id: string; amount: string }[] = [];
  // Eight at a time: seeding a few thousand loans' terms one by one takes minutes.
  while (terms.length < count) {
    terms.push(...(await Promise.all(Array.from({ length: Math.min(8, count - terms.length) }, one))));
  }
  return terms;
}

/** A concrete path for each GET operation of the document (template → path with the seeded ids). */
export function readPaths(
  document: { paths: Record<string, Record<string, unknown>> },
  ids: Record<string, string>,
) {
  const out: { template: string; path: string }[] = [];
  for (const [template, operations] of Object.entries(document.paths)) {
    if (!('get' in operations)) continue;
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
      const id =
        name === 'customer_id' && template.includes('/documents/') ? ids.document_customer_id : ids[name];
      if (!id) throw new Error(`no seeded value for {${name}} in GET ${template}`);
      return id;
    });
    out.push({ template, path });
  }
  return out;
}
