import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LogContext } from '../../src/http/deps.js';
import { spawnCli, waitForLine } from '../support/cli.js';
import { createTestSandbox } from '../support/sandbox.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

describe('the server log', () => {
  it('names the request of an unexpected error (its Request-Id)', async () => {
    const sandbox = createTestSandbox();
    const lines: { message: string; context?: LogContext }[] = [];
    sandbox.deps.log = {
      info: () => {},
      error: (message, _error, context) => lines.push({ message, context }),
    };
    const customers = sandbox.deps.store.customers;
    customers.get = () => {
      throw new Error('a broken row');
    };
    const res = await sandbox.request('GET', '/v3/customers/cust_1');
    expect(res.status).toBe(500);
    expect(lines).toEqual([
      {
        message: 'unexpected error while handling a request',
        context: { request_id: res.headers.get('request-id') },
      },
    ]);
  });

  it('prints one JSON object per line with --log-format json, the banner included', async () => {
    const data = join(mkdtempSync(join(tmpdir(), 'credit-sandbox-log-')), 'data.json');
    const child = spawnCli(['serve', '--port', '0', '--data', data, '--log-format', 'json', '--log', 'json']);
    children.push(child);
    const stdout = child.stdout as NodeJS.ReadableStream;
    const lines: string[] = [];
    stdout.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
    const listening = await waitForLine(stdout, (line) => line.includes('listening on'), 30_000);
    const url = (JSON.parse(listening) as { msg: string }).msg.match(/http:\/\/127\.0\.0\.1:\d+/)?.[0];
    const res = await fetch(`${url}/v3/sandbox/clock`);
    expect(res.status).toBe(401);
    const requestId = res.headers.get('request-id');
    await waitForLine(stdout, (line) => line.includes(String(requestId)), 10_000);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(parsed.find((l) => String(l.msg).startsWith('storage: restored'))).toMatchObject({
      level: 'info',
    });
    expect(parsed.find((l) => String(l.msg).includes('client_secret'))).toBeDefined();
    // The access line of the refused request carries its Request-Id.
    expect(parsed.find((l) => l.request_id === requestId)).toMatchObject({ method: 'GET', status: 401 });
    for (const line of parsed) expect(typeof line.time).toBe('string');
  }, 60_000);
});
