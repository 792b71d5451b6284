// The conformance kit against this sandbox as a black box (control API hidden: skips with reasons,
// never fails) and with `--compare` against an altered copy (names exactly the alteration). Its
// reports are validated by the JSON Schema documented in docs/conformance.md. The whole kit in
// controlled mode runs in conformance-cli.test.ts.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_CHECKS } from '../../src/conformance/checks/index.js';
import type { Report } from '../../src/conformance/report.js';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import type { RunningServer } from '../../src/server.js';
import { editJson, startAlteringProxy } from '../support/altering-proxy.js';
import { expectValidReport, idsWith, runKit } from '../support/conformance.js';
import { tokenFor } from '../support/proxy-session.js';
import { startQuietServer } from '../support/test-server.js';

let sandbox: RunningServer;
let dir: string;
beforeAll(async () => {
  sandbox = await startQuietServer();
  dir = mkdtempSync(join(tmpdir(), 'conformance-'));
});
afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the conformance kit against this sandbox', () => {
  it('runs as a black box when the control API is hidden: skips with reasons, fails nothing', async () => {
    const proxy = await startAlteringProxy(sandbox.url, { hideControl: true });
    try {
      const { code, report } = await runKit(proxy.url, { timeout: '1s' });
      expect(report.mode).toBe('black-box');
      expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
      const skipped = report.checks.filter((c) => c.status === 'skip');
      expect(skipped.length).toBeGreaterThan(0);
      for (const check of skipped)
        expect(check.reason, check.id).toMatch(
          /control API|within --timeout|clock did not move|second partner|black-box/,
        );
      expect(idsWith(report, 'pass')).toContain('customers.create.location');
      expect(code).toBe(0);
      expectValidReport(report);
    } finally {
      await proxy.close();
    }
  }, 600_000);

  it('with --compare, names exactly the one alteration between the sandbox and an altered copy', async () => {
    const proxy = await startAlteringProxy(sandbox.url, {
      alteration: {
        answer: (request, answer) =>
          /^\/v3\/customers(\/cust_[0-9a-f]+)?(\?|$)/.test(request.url) &&
          editJson(answer, (body) => {
            for (const customer of Array.isArray(body.data)
              ? (body.data as Array<Record<string, unknown>>)
              : [body]) {
              customer.tradingName = customer.trading_name;
              delete customer.trading_name;
            }
          }),
      },
    });
    try {
      const only = ['customers.create.*', 'customers.get', 'lists.customers.envelope', 'credit.offer.fields'];
      const { code, report } = await runKit(`${sandbox.url}/v3`, { only, compare: proxy.url });
      expectValidReport(report);
      const differences = report.compare?.differences ?? [];
      expect(differences.length).toBeGreaterThan(0);
      const named = new Set(
        differences.map((d) => `${d.at.replace(/^body(\.data\[\*\])?\./, '')} ${d.kind}`),
      );
      expect([...named].sort()).toEqual(['trading_name missing', 'tradingName unexpected'].sort());
      expect(code).toBe(1);
      // The same runs against two copies of the same behaviour differ in nothing.
      const plain = await startAlteringProxy(sandbox.url);
      try {
        const same = await runKit(`${sandbox.url}/v3`, { only, compare: plain.url });
        expect(same.report.compare?.differences).toEqual([]);
        expect(same.code).toBe(0);
      } finally {
        await plain.close();
      }
    } finally {
      await proxy.close();
    }
  }, 600_000);

  it('writes the report file and refuses what it cannot run with exit 2 and the reason', async () => {
    const file = join(dir, 'report.json');
    const { code } = await runKit(`${sandbox.url}/v3`, { only: ['auth.token.*'], report: file });
    expect(code).toBe(0);
    const written = JSON.parse(readFileSync(file, 'utf8')) as Report;
    expectValidReport(written);
    expect(written.checks.map((c) => c.id)).toEqual(
      ALL_CHECKS.filter((c) => c.id.startsWith('auth.token.')).map((c) => c.id),
    );
    const live = await runKit(`${sandbox.url}/v3`, { clientSecret: 'svc_cs_live_abc' });
    expect(live.code).toBe(2);
    expect(live.stderr).toContain('production credential');
    const refused = await runKit(`${sandbox.url}/v3`, { clientSecret: 'svc_cs_test_wrong' });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('refused the credential');
    const noV3 = await runKit(sandbox.url, {});
    expect(noV3.code).toBe(2);
    expect(noV3.stderr).toContain('must end in /v3');
    const unreachable = await runKit('http://127.0.0.1:9/v3', {});
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toContain('unreachable');
  });

  it('deletes the partners it made when its checks end (and gives each a lifetime of an hour)', async () => {
    const base = `${sandbox.url}/v3`;
    const { code, report } = await runKit(base, { only: ['customers.*'] });
    expect(code).toBe(0);
    expect(report.checks.filter((c) => c.status === 'pass').length).toBeGreaterThan(3);
    const token = await tokenFor(base, {
      client_id: DEFAULT_CLIENT_ID,
      client_secret: DEFAULT_CLIENT_SECRET,
    });
    const res = await fetch(`${base}/sandbox/partners?limit=100`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: Array<{ name: string }> };
    expect(data.filter((p) => p.name.startsWith('conformance'))).toEqual([]);
  });
});
