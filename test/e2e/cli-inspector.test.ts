import { afterAll, describe, expect, it } from 'vitest';
import {
  defaultPartnerCall,
  exitOf,
  runCli,
  spawnCli,
  testServerForFile,
  waitForLine,
} from '../support/cli.js';
import { WAIT_LIMIT_S } from '../support/time-limits.js';
import { type Receiver, startReceiver } from '../support/webhook-receiver.js';

const server = testServerForFile();
const receivers: Receiver[] = [];
const env = () => ({ CREDIT_SANDBOX_URL: server.url });

afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

const api = (method: string, path: string, body?: unknown) =>
  defaultPartnerCall(server.url, method, path, body);

describe('credit-sandbox requests', () => {
  it('lists the 4xx a partner got and shows one by its Request-Id, secrets redacted', async () => {
    const bad = await api('POST', '/v3/customers', { cpf: '123' });
    expect(bad.status).toBe(400);
    const requestId = bad.headers.get('Request-Id') as string;
    const problem = (await bad.json()) as { instance: string };

    const list = await runCli(['requests', 'list', '--status', '4xx', '--json'], env());
    expect(list.code).toBe(0);
    const entries = JSON.parse(list.stdout) as { id: string; status: number; error_code: string }[];
    expect(entries.find((e) => e.id === requestId)).toMatchObject({
      status: 400,
      error_code: 'validation_failed',
    });

    const text = await runCli(['requests', 'list', '--method', 'post', '--path', '/v3/customers'], env());
    expect(text.stdout).toContain(`400 POST   /v3/customers`);
    expect(text.stdout).toContain(requestId);

    // The problem's `instance` works as the argument too.
    const show = await runCli(['requests', 'show', problem.instance], env());
    expect(show.code).toBe(0);
    expect(show.stdout).toContain('authorization: Bearer [redacted]');
    expect(show.stdout).toContain('"cpf": "123"');
    expect(show.stdout).toContain('"code": "validation_failed"');

    const missing = await runCli(['requests', 'show', 'req_00000000000000000000000000000000'], env());
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('404');
  });
});

describe('credit-sandbox listen --chaos', () => {
  it('sets chaos on its endpoint: with duplicate=1 the app gets every event twice', async () => {
    const app = await startReceiver();
    receivers.push(app);
    const listen = spawnCli(
      [
        'listen',
        '--forward-to',
        app.url,
        '--events',
        'customer.created',
        '--chaos',
        'duplicate=1',
        '--max',
        '2',
        '--timeout',
        WAIT_LIMIT_S,
        '--json',
      ],
      env(),
    );
    const ready = JSON.parse(
      await waitForLine(listen.stdout as NodeJS.ReadableStream, (line) => line.includes('"event":"ready"')),
    ) as { endpoint_id: string; chaos: unknown };
    expect(ready.chaos).toEqual({ duplicate_rate: 1 });
    const chaos = await (
      await api('GET', `/v3/sandbox/webhooks/endpoints/${ready.endpoint_id}/chaos`)
    ).json();
    expect(chaos).toMatchObject({ enabled: true, duplicate_rate: 1 });

    const created = await api('POST', '/v3/customers', { cpf: '52998224725', name: 'Chaos Listener' });
    expect(created.status).toBe(201);
    expect(await exitOf(listen)).toBe(0);
    expect(app.received).toHaveLength(2);
    expect(app.received[0]?.headers['webhook-id']).toBe(app.received[1]?.headers['webhook-id']);
  });

  it('refuses an unknown chaos setting as a usage error', async () => {
    const res = await runCli(
      ['listen', '--forward-to', 'http://127.0.0.1:9/x', '--chaos', 'sometimes=1'],
      env(),
    );
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('unknown --chaos setting "sometimes"');
  });
});
