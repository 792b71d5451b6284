import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import type { RunningServer } from '../../src/server.js';
import {
  defaultPartnerCall,
  exitOf,
  runCli,
  spawnCli,
  startTestServer,
  waitForLine,
} from '../support/cli.js';

// Two sandboxes on loopback: the CLI saves, restores, exports from one and imports into the other.
let source: RunningServer;
let target: RunningServer;
beforeAll(async () => {
  [source, target] = await Promise.all([startTestServer(), startTestServer()]);
});
afterAll(async () => {
  await Promise.all([source.close(), target.close()]);
});

const env = (server: RunningServer) => ({
  CREDIT_SANDBOX_URL: server.url,
  CREDIT_SANDBOX_CLIENT_ID: DEFAULT_CLIENT_ID,
  CREDIT_SANDBOX_CLIENT_SECRET: DEFAULT_CLIENT_SECRET,
});

/** A direct API call (spawning the CLI for the setup would only make the test slower). */
async function api(server: RunningServer, method: string, path: string, body?: unknown): Promise<unknown> {
  return (await defaultPartnerCall(server.url, method, path, body)).json();
}

async function ok(args: string[], server: RunningServer): Promise<string> {
  const result = await runCli(args, env(server));
  if (result.code !== 0) throw new Error(`${args.join(' ')} -> ${result.code}\n${result.stderr}`);
  return result.stdout;
}

describe('credit-sandbox snapshot (spawned CLI)', () => {
  it('saves, lists, restores, exports, imports and deletes', async () => {
    await api(source, 'POST', '/v3/customers', { cpf: '52998224725', name: 'Snap Shot' });
    expect(await ok(['snapshot', 'save', 'one'], source)).toMatch(
      /^saved one {2}saved .* 1 customers, 0 loans/,
    );
    expect(await ok(['snapshot', 'list'], source)).toMatch(/^one {2}saved/);
    await api(source, 'POST', '/v3/sandbox/clock/advance', { by: '2d' });
    expect(await ok(['snapshot', 'restore', 'one'], source)).toMatch(/^restored one: clock at .* \(frozen\)/);

    const dir = mkdtempSync(join(tmpdir(), 'cli-snapshots-'));
    const file = join(dir, 'one.snapshot.json.gz');
    expect(await ok(['snapshot', 'export', 'one', '-o', file], source)).toMatch(/^wrote one to /);
    const document = JSON.parse(gunzipSync(readFileSync(file)).toString()) as {
      format: string;
      version: number;
    };
    expect(document).toMatchObject({ format: 'credit-sandbox-snapshot', version: 1 });

    const imported = JSON.parse(
      await ok(['snapshot', 'import', file, '--name', 'copy', '--json'], target),
    ) as {
      snapshot: { name: string; counts: Record<string, number> };
    };
    expect(imported.snapshot).toMatchObject({ name: 'copy', counts: { customers: 1 } });
    const customers = (await api(target, 'GET', '/v3/customers')) as { data: { name: string }[] };
    expect(customers.data.map((c) => c.name)).toEqual(['Snap Shot']);

    expect(await ok(['snapshot', 'delete', 'one'], source)).toBe('deleted snapshot one\n');
    const list = (await api(source, 'GET', '/v3/sandbox/snapshots')) as { data: unknown[] };
    expect(list.data).toEqual([]);
  });

  it('serve loads the fixture named by CREDIT_SANDBOX_SNAPSHOT (the Docker way) and stops on a bad one', async () => {
    await api(source, 'POST', '/v3/customers', { cpf: '11144477735', name: 'From Env' });
    await api(source, 'POST', '/v3/sandbox/snapshots', { name: 'env-fixture' });
    const dir = mkdtempSync(join(tmpdir(), 'cli-snapshot-env-'));
    const file = join(dir, 'env-fixture.snapshot.json.gz');
    const basic = Buffer.from(`${DEFAULT_CLIENT_ID}:${DEFAULT_CLIENT_SECRET}`).toString('base64');
    const auth = await fetch(`${source.url}/v3/auth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}` },
    });
    const { access_token } = (await auth.json()) as { access_token: string };
    const exported = await fetch(`${source.url}/v3/sandbox/snapshots/env-fixture/export?gzip=1`, {
      headers: { authorization: `Bearer ${access_token}` },
    });
    writeFileSync(file, Buffer.from(await exported.arrayBuffer()));

    const child = spawnCli(['serve', '--port', '0', '--clock', 'frozen'], { CREDIT_SANDBOX_SNAPSHOT: file });
    try {
      let stdout = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8');
      });
      await waitForLine(child.stdout as NodeJS.ReadableStream, (l) => l.includes('client_secret'));
      expect(stdout).toMatch(/snapshot: loaded "env-fixture" \(\d+ rows\) into the default partner/);
      const url = /credit-sandbox listening on (\S+)/.exec(stdout)?.[1] ?? '';
      const served = { url } as RunningServer;
      const customers = (await api(served, 'GET', '/v3/customers')) as { data: { name: string }[] };
      expect(customers.data.map((c) => c.name)).toContain('From Env');
    } finally {
      child.kill('SIGTERM');
      await exitOf(child);
    }

    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"format": "credit-sandbox-snapshot", "version": 2}');
    const refused = await runCli(['serve', '--port', '0'], { CREDIT_SANDBOX_SNAPSHOT: broken });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--snapshot .*broken\.json: Version 2 is unknown/);
  });
});
