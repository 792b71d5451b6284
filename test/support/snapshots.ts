import { captureWorldTables, type WorldTables } from '../../src/store/partner-world.js';
import type { Store } from '../../src/store/store.js';
import type { ReceiverAnswer, WebhookSender } from '../../src/webhooks/sender.js';
import { activeCustomer, advanceClock, createLoan, offersOf, simulate } from './credit.js';
import { CPF } from './customers.js';
import type { TestSandbox } from './sandbox.js';

/** A receiver that answers every webhook 200 at once (deliveries settle on `idle()`). */
export const acceptAll: WebhookSender = async (): Promise<ReceiverAnswer> => ({
  statusCode: 200,
  retryAfter: null,
  body: 'ok',
});

function ok<T>(res: { status: number; body: T }, expected: number, what: string): T {
  if (res.status !== expected) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/**
 * Gives the default partner something of everything: a webhook endpoint with chaos settings and
 * delivered events, an active customer with an offer, a simulation and a signed loan whose
 * disbursement is a pending job, an idempotency key and a moved clock.
 */
export async function buildWorld(sandbox: TestSandbox): Promise<{ loanId: string; customerId: string }> {
  const endpoint = ok(
    await sandbox.json<{ id: string }>('POST', '/v3/webhooks/endpoints', {
      body: { url: 'http://127.0.0.1:9/hooks', events: ['*'] },
      headers: { 'Idempotency-Key': 'endpoint-1' },
    }),
    201,
    'endpoint',
  );
  ok(
    await sandbox.json('PUT', `/v3/sandbox/webhooks/endpoints/${endpoint.id}/chaos`, {
      body: { duplicate_rate: 0.5 },
    }),
    200,
    'chaos',
  );
  const customer = await activeCustomer(sandbox, { cpf: CPF.plain });
  const offer = (await offersOf(sandbox, customer.id))[0];
  if (!offer) throw new Error('no offer');
  const simulation = await simulate(sandbox, offer.id, '1000.00', 6);
  const loan = await createLoan(sandbox, offer.id, simulation.id);
  await advanceClock(sandbox, { by: '10s' });
  ok(await sandbox.json('POST', `/v3/sandbox/loans/${loan.id}/sign`), 200, 'sign');
  await sandbox.deps.webhooks.idle();
  return { loanId: loan.id, customerId: customer.id };
}

/** The partner's rows of every snapshot table, each table sorted by id (order-free comparison). */
export function worldRows(store: Store, partnerId: string): WorldTables {
  const tables = captureWorldTables(store, partnerId);
  for (const rows of Object.values(tables)) rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return JSON.parse(JSON.stringify(tables)) as WorldTables;
}

/**
 * The rows as an import keeps them, order aside: an import gives every row a fresh `seq` of the
 * importing sandbox, so rows compare without it; `seqOrder` checks the order it keeps.
 */
export function rowsWithoutSeq(tables: WorldTables): WorldTables {
  const out: WorldTables = {};
  for (const [name, rows] of Object.entries(tables)) out[name] = rows.map(({ seq: _, ...row }) => row);
  return out;
}

/** `table id` of every row of a world, in `seq` order: what an import's renumbering must keep. */
export function seqOrder(tables: WorldTables, partnerId: string): string[] {
  return Object.entries(tables)
    .flatMap(([name, rows]) => rows.map((row) => ({ key: `${name} ${row.id}`, seq: row.seq ?? 0 })))
    .sort((a, b) => a.seq - b.seq)
    .map((entry) => entry.key.replaceAll(partnerId, 'P'));
}

/** What the API shows of a partner's world: the lists a client reads, as JSON text. */
export async function apiPicture(sandbox: TestSandbox, token?: string): Promise<Record<string, unknown>> {
  const auth = token ? { token } : {};
  const paths = [
    '/v3/sandbox/clock',
    '/v3/customers?limit=100',
    '/v3/loans?limit=100',
    '/v3/webhooks/endpoints?limit=100',
    '/v3/sandbox/events?limit=100',
    '/v3/sandbox/deliveries?limit=100',
  ];
  const picture: Record<string, unknown> = {};
  for (const path of paths) picture[path] = ok(await sandbox.json('GET', path, auth), 200, path);
  return picture;
}
