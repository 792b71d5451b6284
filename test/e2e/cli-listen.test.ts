import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { defaultPartnerCall, exitOf, spawnCli, testServerForFile, waitForLine } from '../support/cli.js';
import { WAIT_LIMIT_MS, WAIT_LIMIT_S } from '../support/time-limits.js';
import { type Receiver, startReceiver } from '../support/webhook-receiver.js';

const server = testServerForFile();
let app: Receiver;

/** Calls the sandbox as the default partner. */
async function api<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await defaultPartnerCall(server.url, method, path, body);
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** Polls until `check` holds (a real delivery over loopback; a hang after `timeoutMs`). */
async function eventually(check: () => boolean, timeoutMs = WAIT_LIMIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface Ready {
  event: 'ready';
  endpoint_id: string;
  secret: string;
  url: string;
}

describe('credit-sandbox listen --forward-to', () => {
  it('relays a signed delivery that verifies with the printed secret, then disables its endpoint', async () => {
    app = await startReceiver();
    const listen = spawnCli(
      [
        'listen',
        '--forward-to',
        app.url,
        '--events',
        'customer.created',
        '--max',
        '1',
        '--timeout',
        WAIT_LIMIT_S,
        '--json',
      ],
      { CREDIT_SANDBOX_URL: server.url },
    );
    let stdout = '';
    listen.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    const ready = JSON.parse(
      await waitForLine(listen.stdout as NodeJS.ReadableStream, (line) => line.includes('"event":"ready"')),
    ) as Ready;
    expect(ready.secret).toMatch(/^whsec_/);
    const endpoints = await api<{ data: { id: string; url: string; events: string[] }[] }>(
      'GET',
      '/v3/webhooks/endpoints',
    );
    expect(endpoints.body.data).toEqual([
      expect.objectContaining({ id: ready.endpoint_id, url: ready.url, events: ['customer.created'] }),
    ]);

    const customer = await api<{ id: string }>('POST', '/v3/customers', {
      cpf: '52998224725',
      name: 'Maria',
    });
    expect(customer.status).toBe(201);

    expect(await exitOf(listen)).toBe(0);
    expect(app.received).toHaveLength(1);
    const delivery = app.received[0] as { headers: Record<string, string>; body: string };
    // The local app verifies the relayed delivery with the secret the CLI printed.
    const payload = new Webhook(ready.secret).verify(delivery.body, delivery.headers) as {
      type: string;
      data: { id: string };
    };
    expect(payload).toMatchObject({ type: 'customer.created', data: { id: customer.body.id } });
    expect(delivery.headers['webhook-id']).toMatch(/^evt_[0-9a-f]{32}$/);

    const relayed = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(relayed[1]).toMatchObject({
      event: 'delivery',
      type: 'customer.created',
      webhook_id: delivery.headers['webhook-id'],
      status: 200,
    });
    // The endpoint stays for the next run, disabled: nothing is queued for a relay that is gone.
    expect((await api<{ data: unknown[] }>('GET', '/v3/webhooks/endpoints')).body.data).toEqual([
      expect.objectContaining({ id: ready.endpoint_id, status: 'disabled' }),
    ]);
    await app.close();
  });

  it("passes the app's failure back to the sandbox, so the retry arrives through the relay too", async () => {
    app = await startReceiver((_, n) => ({ status: n === 0 ? 503 : 200 }));
    const listen = spawnCli(
      ['listen', '-f', app.url, '-e', 'customer.*', '--max', '2', '--timeout', WAIT_LIMIT_S],
      {
        CREDIT_SANDBOX_URL: server.url,
      },
    );
    const secretLine = await waitForLine(listen.stdout as NodeJS.ReadableStream, (line) =>
      line.startsWith('Your webhook signing secret is whsec_'),
    );
    const secret = /(whsec_\S+)/.exec(secretLine)?.[1] as string;

    await api('POST', '/v3/customers', { cpf: '11144477735' });
    await eventually(() => app.received.length === 1);
    // The first attempt got the app's 503: the retry falls due 5 s later on the partner clock.
    const advanced = await api('POST', '/v3/sandbox/clock/advance', { by: '5s' });
    expect(advanced.status).toBe(200);
    expect(await exitOf(listen)).toBe(0);

    expect(app.received).toHaveLength(2);
    const [first, retry] = app.received as { headers: Record<string, string>; body: string }[];
    expect(retry?.headers['webhook-id']).toBe(first?.headers['webhook-id']);
    expect(() => new Webhook(secret).verify(retry?.body ?? '', retry?.headers ?? {})).not.toThrow();
    const deliveries = await api<{ data: { attempts: { status_code: number }[] }[] }>(
      'GET',
      '/v3/sandbox/deliveries',
    );
    expect(deliveries.body.data[0]?.attempts.map((a) => a.status_code)).toEqual([503, 200]);
    await app.close();
  });
});
