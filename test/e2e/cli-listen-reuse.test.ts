import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPartnerCall, exitOf, spawnCli, testServerForFile, waitForLine } from '../support/cli.js';
import { type Receiver, startReceiver } from '../support/webhook-receiver.js';

// `listen --forward-to` keeps one endpoint and one secret per partner and forward URL across runs,
// as the Stripe CLI does: the app's configuration does not change between runs; --new-secret
// rotates it. Each test spawns the CLI four or five times (one start can take 15 s on a loaded
// 2-core machine): the suite's time limit covers it (test/support/time-limits.ts).
const server = testServerForFile();
let app: Receiver;
let other: Receiver;
beforeAll(async () => {
  app = await startReceiver();
  other = await startReceiver();
});
afterAll(async () => {
  await app.close();
  await other.close();
});

interface Ready {
  endpoint_id: string;
  secret: string;
  secret_origin: string;
}

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await defaultPartnerCall(server.url, method, path, body);
  return (await res.json()) as T;
}

/** One listen run: ready, then (with `cpf`) one customer registered and relayed, else stopped. */
async function listenOnce(forward: string, extra: string[] = [], cpf?: string): Promise<Ready> {
  const listen = spawnCli(
    [
      'listen',
      '--forward-to',
      forward,
      '--events',
      'customer.created',
      '--json',
      ...(cpf ? ['--max', '1'] : []),
      ...extra,
    ],
    { CREDIT_SANDBOX_URL: server.url },
  );
  const ready = JSON.parse(
    await waitForLine(listen.stdout as NodeJS.ReadableStream, (line) => line.includes('"event":"ready"')),
  ) as Ready;
  if (cpf) await api('POST', '/v3/customers', { cpf, name: 'Listener' });
  else listen.kill('SIGTERM');
  expect(await exitOf(listen)).toBe(0);
  return ready;
}

function verifies(
  secret: string,
  delivery: { headers: Record<string, string>; body: string } | undefined,
): boolean {
  try {
    new Webhook(secret).verify(delivery?.body ?? '', delivery?.headers ?? {});
    return true;
  } catch {
    return false;
  }
}

describe('credit-sandbox listen keeps its endpoint and secret across runs', () => {
  it('prints the same secret for the same forward URL, relays with it, and --new-secret rotates it', async () => {
    const first = await listenOnce(app.url);
    expect(first.secret_origin).toBe('created');
    const second = await listenOnce(app.url, [], '52998224725');
    expect(second).toMatchObject({
      endpoint_id: first.endpoint_id,
      secret: first.secret,
      secret_origin: 'reused',
    });
    expect(app.received).toHaveLength(1);
    expect(verifies(first.secret, app.received[0])).toBe(true);

    const rotated = await listenOnce(app.url, ['--new-secret'], '11144477735');
    expect(rotated.endpoint_id).toBe(first.endpoint_id);
    expect(rotated.secret_origin).toBe('rotated');
    expect(rotated.secret).not.toBe(first.secret);
    expect(app.received).toHaveLength(2);
    expect(verifies(rotated.secret, app.received[1])).toBe(true);
    expect(verifies(first.secret, app.received[1])).toBe(false);

    // The next run keeps the rotated secret.
    expect((await listenOnce(app.url)).secret).toBe(rotated.secret);
    const endpoints = await api<{ data: { id: string; status: string }[] }>('GET', '/v3/webhooks/endpoints');
    expect(endpoints.data).toEqual([expect.objectContaining({ id: first.endpoint_id, status: 'disabled' })]);
  });

  it('gives another forward URL its own endpoint and secret', async () => {
    const mine = await listenOnce(app.url);
    const theirs = await listenOnce(other.url);
    expect(theirs.endpoint_id).not.toBe(mine.endpoint_id);
    expect(theirs.secret).not.toBe(mine.secret);
    expect(theirs.secret_origin).toBe('created');
    expect((await listenOnce(other.url)).secret).toBe(theirs.secret);
  });
});
