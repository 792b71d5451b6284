import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateCpf } from '../../src/finance/cpf.js';
import { spawnCli, waitForLine } from '../support/cli.js';
import { partnerClient } from '../support/partner-client.js';
import { type CreatedPartner, createPartner } from '../support/partners.js';

const PARTNERS = 24;
const CUSTOMERS = 4;
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

async function serve(path: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawnCli([
    'serve',
    ...['--port', '0', '--data', path, '--clock', 'frozen', '--rate-limit', '0'],
    ...['--journal-limit', '16kb'], // small, so compactions run while partners go
  ]);
  children.push(child);
  const listening = await waitForLine(
    child.stdout as NodeJS.ReadableStream,
    (line) => line.includes('listening on'),
    30_000,
  );
  return { child, url: (listening.match(/http:\/\/127\.0\.0\.1:\d+/) as RegExpMatchArray)[0] };
}

function clientAt(url: string, partner?: CreatedPartner) {
  const send = (path: string, init: RequestInit) => fetch(`${url}${path}`, init);
  return partner ? partnerClient(send, partner.client_id, partner.client_secret) : partnerClient(send);
}

describe('kill -9 while partners are being deleted, with --data', () => {
  it('leaves each partner whole or gone, and every acknowledged deletion gone', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'credit-sandbox-delete-kill-')), 'data.json');
    const first = await serve(path);
    const admin = clientAt(first.url);
    const partners: CreatedPartner[] = [];
    for (let i = 0; i < PARTNERS; i++) {
      const partner = await createPartner(admin);
      const own = clientAt(first.url, partner);
      for (let c = 0; c < CUSTOMERS; c++) {
        const cpf = generateCpf(String(300_000_000 + i * 10 + c));
        const res = await own.json('POST', '/v3/customers', { body: { cpf, name: `Customer ${c}` } });
        expect(res.status).toBe(201);
      }
      partners.push(partner);
    }

    // Every deletion at once; the process dies once a third of them were acknowledged.
    const acked = new Set<string>();
    const token = await admin.token();
    const deletions = partners.map(async (partner) => {
      try {
        const res = await fetch(`${first.url}/v3/sandbox/partners/${partner.id}`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${token}` },
        });
        if (res.status === 204) acked.add(partner.id);
      } catch {
        // cut off by the kill: not acknowledged
      }
    });
    const exited = new Promise((resolve) => first.child.once('exit', resolve));
    const started = Date.now();
    while (acked.size < PARTNERS / 3 && Date.now() - started < 20_000) {
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    first.child.kill('SIGKILL');
    await Promise.all(deletions);
    await exited;
    expect(acked.size).toBeGreaterThanOrEqual(PARTNERS / 3);

    const second = await serve(path);
    const outcomes = { whole: 0, gone: 0 };
    for (const partner of partners) {
      const own = clientAt(second.url, partner);
      const tokenRes = await fetch(`${second.url}/v3/auth/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${partner.client_id}:${partner.client_secret}`).toString('base64')}`,
        },
      });
      const body = (await tokenRes.json()) as { access_token?: string; code?: string };
      if (tokenRes.status === 401) {
        expect(body.code).toBe('partner_deleted');
        outcomes.gone++;
        continue;
      }
      expect(acked.has(partner.id), `${partner.id} was acknowledged as deleted`).toBe(false);
      const list = await own.json<{ data: unknown[] }>('GET', '/v3/customers', { token: body.access_token });
      expect(list.body.data).toHaveLength(CUSTOMERS);
      outcomes.whole++;
    }
    expect(outcomes.gone).toBeGreaterThanOrEqual(acked.size);
    expect(outcomes.gone + outcomes.whole).toBe(PARTNERS);
  }, 120_000);
});
