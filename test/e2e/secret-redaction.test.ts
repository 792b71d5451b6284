import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import { startInstance, stopInstance } from '../postgres/support/fleet.js';
import { createTestSandbox } from '../support/sandbox.js';
import { leaksIn, sendSecrets } from '../support/secrets.js';

/** Signs in to the dashboard over HTTP as a browser would; returns the session cookie. */
async function dashboardCookie(base: string): Promise<string> {
  const form = await fetch(`${base}/dashboard/sign-in`);
  const nonce = (form.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
  const res = await fetch(`${base}/dashboard/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: nonce, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      _csrf: csrf,
      client_id: DEFAULT_CLIENT_ID,
      client_secret: DEFAULT_CLIENT_SECRET,
    }),
  });
  return (res.headers.getSetCookie().find((c) => c.startsWith('credit_sandbox_session=')) ?? '').split(
    ';',
  )[0] as string;
}

describe('secrets never reach a record or a log', () => {
  it('redacts queries, headers, bodies and paths in the inspector, the dashboard, the --data files and the access log', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'credit-sandbox-redaction-'));
    const instance = await startInstance(undefined, ['--data', join(dir, 'sandbox.json'), '--log', 'json']);
    try {
      const base = instance.url;
      const token = await sendSecrets(base);
      const bearer = { authorization: `Bearer ${token}` };

      const list = await fetch(`${base}/v3/sandbox/requests?limit=100`, { headers: bearer });
      const listed = await list.text();
      expect(JSON.parse(listed).data.length).toBeGreaterThanOrEqual(5);
      expect(listed).toContain('[redacted]');
      expect(leaksIn(listed, token)).toEqual([]);
      for (const entry of JSON.parse(listed).data as { id: string }[]) {
        const one = await (
          await fetch(`${base}/v3/sandbox/requests/${entry.id}`, { headers: bearer })
        ).text();
        expect(leaksIn(one, token), entry.id).toEqual([]);
      }

      const cookie = await dashboardCookie(base);
      expect(cookie).not.toBe('');
      const page = await (await fetch(`${base}/dashboard/requests`, { headers: { cookie } })).text();
      expect(page).toContain('/v3/auth/token');
      expect(leaksIn(page, token)).toEqual([]);
      const ids = [...page.matchAll(/href="\/dashboard\/requests\/(req_[0-9a-f]+)"/g)].map((m) => m[1]);
      expect(ids.length).toBeGreaterThan(0);
      for (const id of ids) {
        const detail = await (
          await fetch(`${base}/dashboard/requests/${id}`, { headers: { cookie } })
        ).text();
        expect(leaksIn(detail, token), id).toEqual([]);
      }
    } finally {
      await stopInstance(instance);
    }
    try {
      let files = '';
      for (const name of await readdir(dir)) files += await readFile(join(dir, name), 'utf8');
      // The log's rows were written (the redacted query is there), without a secret.
      expect(files).toContain('client_secret=[redacted]');
      // (The credentials table holds the client secret itself: the sandbox checks it. The log
      // rows must not hold it, nor anything sent.)
      expect(leaksIn(files, '\u0000never').filter((leak) => leak !== 'the client secret')).toEqual([]);
      // The access log (JSON lines) holds nothing secret; the rest of the output only the start
      // banner's default credential, which is printed on purpose.
      const accessLog = instance.output.filter((line) => line.startsWith('{')).join('\n');
      expect(accessLog).toContain('/v3/sandbox/clock?access_token=[redacted]&password=[redacted]');
      expect(accessLog).toContain('client_secret=[redacted]');
      expect(leaksIn(accessLog, '\u0000never')).toEqual([]);
      const banner = `client_secret  ${DEFAULT_CLIENT_SECRET}`;
      const rest = instance.output.filter((line) => !line.startsWith('{') && !line.includes(banner));
      expect(leaksIn(rest.join('\n'), '\u0000never')).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('dashboard cookies behind https', () => {
  const setCookies = async (publicUrl: string, headers: Record<string, string> = {}) => {
    const sandbox = createTestSandbox({ publicUrl });
    const res = await sandbox.app.request('/dashboard/sign-in', { headers });
    return res.headers.getSetCookie();
  };

  it('are Secure when the public URL is https, or a proxy says the request was', async () => {
    const viaPublicUrl = await setCookies('https://sandbox.example.com');
    expect(viaPublicUrl.length).toBeGreaterThan(0);
    for (const cookie of viaPublicUrl) expect(cookie).toContain('; Secure');
    for (const cookie of await setCookies('http://sandbox.test', { 'x-forwarded-proto': 'https' })) {
      expect(cookie).toContain('; Secure');
    }
  });

  it('are not Secure over plain http (a developer machine)', async () => {
    for (const cookie of await setCookies('http://localhost:8080')) expect(cookie).not.toContain('Secure');
  });
});
