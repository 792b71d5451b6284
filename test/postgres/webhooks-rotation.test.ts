import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import { type RunningServer, startServer } from '../../src/server.js';
import { CPF } from '../support/customers.js';
import { type ReceivedWebhook, type Receiver, startReceiver, verify } from '../support/webhook-receiver.js';
import { freshDatabase, query } from './support/database.js';
import { httpSandbox } from './support/http-sandbox.js';

const silent = { info: () => {}, error: () => {} };
let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

function start(databaseUrl: string): Promise<RunningServer> {
  return startServer({
    port: 0,
    host: '127.0.0.1',
    databaseUrl,
    publicUrl: 'http://sandbox.test',
    clockMode: 'frozen',
    webhookHttpHosts: [],
    rateLimit: 0,
    credential: { clientId: DEFAULT_CLIENT_ID, clientSecret: DEFAULT_CLIENT_SECRET },
    log: silent,
  });
}

/** The next delivery the receiver gets (resolved by the receiver itself: no polling). */
function nextDelivery(rx: Receiver): Promise<ReceivedWebhook> {
  return new Promise((resolve) => {
    const respond = rx.respond;
    rx.respond = (request, n) => {
      rx.respond = respond;
      resolve(request);
      return respond(request, n);
    };
  });
}

describe('PostgreSQL keeps every previous webhook secret and its expiry', () => {
  it('signs with the secrets of two rotations after a restart', async () => {
    const url = await freshDatabase('rotation');
    const rx = await startReceiver();
    cleanup.push(() => rx.close());
    const first = await start(url);
    const api = httpSandbox(() => first.url);
    const ep = await api.json<{ id: string; secret: string }>('POST', '/v3/webhooks/endpoints', {
      body: { url: rx.url, events: ['customer.created'] },
    });
    const rotate = async (seconds: number) =>
      (
        await api.json<{ secret: string }>('POST', `/v3/webhooks/endpoints/${ep.body.id}/secret/rotate`, {
          body: { expire_current_in: seconds },
        })
      ).body.secret;
    const s1 = await rotate(3600);
    const s2 = await rotate(7200);
    const [row] = await query<{ record: { previous_secrets: { expires_at: string }[] } }>(
      url,
      'SELECT record FROM webhook_endpoints WHERE id = $1',
      [ep.body.id],
    );
    expect(row?.record.previous_secrets).toHaveLength(2);
    await first.close();

    const second = await start(url);
    cleanup.push(() => second.close());
    const again = httpSandbox(() => second.url);
    const delivered = nextDelivery(rx);
    const created = await again.json('POST', '/v3/customers', { body: { cpf: CPF.plain } });
    expect(created.status).toBe(201);
    const delivery = await delivered;
    expect(delivery.headers['webhook-signature']?.split(' ')).toHaveLength(3);
    for (const secret of [ep.body.secret, s1, s2])
      expect(verify(secret, delivery).standardwebhooks).toBe(true);
  });
});
