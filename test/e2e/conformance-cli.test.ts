// `credit-sandbox conformance` as a partner's QA runs it: the whole kit, from the CLI, against a
// `credit-sandbox serve` started with its default flags (running clock, rate limit on), over HTTP,
// through a pass-through proxy (the kit does not notice a proxy). CI also runs it on the build
// straight against `node dist/cli/main.js serve` (.ci/conformance.sh).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'test-results-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { ALL_CHECKS } from '../../src/conformance/checks/index.js';
import type { Report } from '../../src/conformance/report.js';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import { type AlteringProxy, startAlteringProxy } from '../support/altering-proxy.js';
import { runCli, spawnCli, waitForLine } from '../support/cli.js';
import { expectValidReport } from '../support/conformance.js';

const dir = mkdtempSync(join(tmpdir(), 'conformance-cli-'));
const children: ReturnType<typeof spawnCli>[] = [];
const proxies: AlteringProxy[] = [];
afterAll(async () => {
  for (const proxy of proxies) await proxy.close();
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

async function serveWithDefaults(): Promise<string> {
  const child = spawnCli(['serve', '--port', '0', '--log', 'off']);
  children.push(child);
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  await waitForLine(child.stdout as NodeJS.ReadableStream, (line) => line.includes('client_secret'));
  return /credit-sandbox listening on (\S+)/.exec(stdout)?.[1] as string;
}

describe('credit-sandbox conformance (CLI)', () => {
  it('passes every check against `serve` with its default flags, through a proxy: exit 0, one line per check', async () => {
    const proxy = await startAlteringProxy(await serveWithDefaults());
    proxies.push(proxy);
    const url = proxy.url.replace(/\/v3$/, '');
    const report = join(dir, 'report.json');
    const junit = join(dir, 'junit.xml');
    const args = [
      'conformance',
      '--target',
      `${url}/v3`,
      '--client-id',
      DEFAULT_CLIENT_ID,
      '--client-secret',
      DEFAULT_CLIENT_SECRET,
    ];
    const result = await runCli([...args, '--report', report, '--junit', junit]);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(ALL_CHECKS.length);
    // The rate-limit check passes when 250 requests at once outrun the default 100 a second; on a
    // machine too busy to answer them that fast it skips, saying so. Every other check passes.
    const notPassed = lines.filter((line) => !line.startsWith('PASS  '));
    expect(notPassed.filter((line) => !line.startsWith('SKIP  errors.rate-limit '))).toEqual([]);
    expect(result.stderr).toContain('exit 0 — every check that could run passed');
    expect(result.code).toBe(0);
    const written = JSON.parse(readFileSync(report, 'utf8')) as Report;
    expect(written.summary.fail).toBe(0);
    expect(written.summary.pass + written.summary.skip).toBe(ALL_CHECKS.length);
    expect(written.mode).toBe('controlled');
    expect(JSON.stringify(written)).not.toContain(DEFAULT_CLIENT_SECRET);
    const seconds = (Date.parse(written.finished_at) - Date.parse(written.started_at)) / 1000;
    process.stderr.write(
      `conformance CLI: ${ALL_CHECKS.length} checks in ${seconds.toFixed(1)} s (controlled mode)\n`,
    );
    expectValidReport(written);
    const parsed = parse({ type: 'junit', files: [junit] });
    // The parser's total leaves skipped cases out (the rate-limit check skips on a busy machine).
    expect(parsed.total + parsed.skipped).toBe(ALL_CHECKS.length);
    expect(parsed.skipped).toBe(written.summary.skip);
    expect(parsed.passed).toBe(written.summary.pass);
    expect(parsed.failed).toBe(0);
    expect(parsed.suites[0]?.cases.map((c) => c.name.split(':', 1)[0])).toEqual(ALL_CHECKS.map((c) => c.id));
    // Wall-clock under load: the whole kit is a few thousand requests; a busy machine takes longer.
  }, 900_000);

  it('lists its checks, refuses a production secret and a bad --timeout with exit 2', async () => {
    const list = await runCli(['conformance', '--list']);
    expect(list.code).toBe(0);
    expect(
      list.stdout
        .trim()
        .split('\n')
        .map((line) => line.split('\t', 1)[0]),
    ).toEqual(ALL_CHECKS.map((c) => c.id));
    const live = await runCli([
      'conformance',
      '--target',
      'http://127.0.0.1:9/v3',
      '--client-id',
      'x',
      '--client-secret',
      'svc_cs_live_x',
    ]);
    expect(live.code).toBe(2);
    expect(live.stderr).toContain('production credential');
    const timeout = await runCli([
      'conformance',
      '--target',
      'http://127.0.0.1:9/v3',
      '--client-id',
      'x',
      '--client-secret',
      'svc_cs_test_x',
      '--timeout',
      'soon',
    ]);
    expect(timeout.code).toBe(2);
    expect(timeout.stderr).toContain('--timeout takes a duration');
  });
});
