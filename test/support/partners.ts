import type { Store } from '../../src/store/store.js';
import { CPF } from './customers.js';
import type { PartnerClient } from './partner-client.js';

/** A partner created through another's client (`POST /v3/sandbox/partners`). */
export interface CreatedPartner {
  id: string;
  client_id: string;
  client_secret: string;
  expires_at: string | null;
}

export async function createPartner(
  creator: PartnerClient,
  body: Record<string, unknown> = {},
): Promise<CreatedPartner> {
  const res = await creator.json<CreatedPartner>('POST', '/v3/sandbox/partners', {
    body: { name: 'tenancy', ...body },
  });
  if (res.status !== 201)
    throw new Error(`partner creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/**
 * Gives a partner something of every kind a partner holds: a customer (with its events and timed
 * jobs), an idempotency key, a webhook endpoint (so deliveries), an API fault rule, a snapshot and
 * request log entries. `hookUrl` must be one the sandbox accepts.
 */
export async function populate(client: PartnerClient, hookUrl = 'http://127.0.0.1:9/hooks'): Promise<void> {
  const calls: [string, string, Record<string, unknown>, Record<string, string>?][] = [
    ['POST', '/v3/webhooks/endpoints', { url: hookUrl }],
    [
      'POST',
      '/v3/customers',
      { cpf: CPF.plain, name: 'Maria da Silva', email: 'maria@example.com', phone: '+5511987654321' },
      { 'Idempotency-Key': 'tenancy-1' },
    ],
    [
      'POST',
      '/v3/sandbox/faults',
      { match: { method: 'GET', path: '/loans' }, action: { status: 503 }, times: 1 },
    ],
    ['POST', '/v3/sandbox/snapshots', { name: 'populated' }],
  ];
  for (const [method, path, body, headers] of calls) {
    const res = await client.json(method, path, { body, ...(headers && { headers }) });
    if (res.status !== 201) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  }
}

/** The rows a partner has in memory, per table (its tombstones apart), tables without any left out. */
export function rowsOf(store: Store, partnerId: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const name of store.tableNames()) {
    if (name === 'partner_tombstones') continue;
    const n = store
      .dumpTable(name)
      .filter((row) => ((row as { partner_id?: string }).partner_id ?? row.id) === partnerId).length;
    if (n > 0) counts[name] = n;
  }
  return counts;
}
