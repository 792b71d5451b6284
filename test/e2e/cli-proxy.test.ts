import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/proxy/contract-load.js';
import { parseRecording } from '../../src/proxy/recording-format.js';
import type { RunningServer } from '../../src/server.js';
import { defaultToken, exitOf, runCli, spawnCli, waitForLine } from '../support/cli.js';
import { type RecordedSession, recordSession } from '../support/proxy-recording.js';
import { startQuietServer } from '../support/test-server.js';

describe('the proxy, replay and scenario from-recording commands', () => {
  let server: RunningServer;
  let recorded: RecordedSession;
  const dir = mkdtempSync(join(tmpdir(), 'cli-proxy-'));
  beforeAll(async () => {
    server = await startQuietServer();
    recorded = await recordSession(server.url, await loadContract(`${server.url}/v3/openapi.json`));
  });
  afterAll(() => server.close());

  it('proxy: prints where to point the app, a line per departure, records, and exits 1 when it saw departures', async () => {
    const file = join(dir, 'cli.ndjson');
    const child = spawnCli(['proxy', '--upstream', `${server.url}/v3`, '--port', '0', '--record', file]);
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    const banner = await waitForLine(child.stderr!, (line) => line.includes('point your app at'));
    const base = /point your app at (\S+)/.exec(banner)![1]!;
    const token = await defaultToken(base.replace(/\/v3$/, ''));
    const list = await fetch(`${base}/customers?limit=1`, { headers: { authorization: `Bearer ${token}` } });
    expect(list.status).toBe(200);
    const unknown = await fetch(`${base}/no-such-operation`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(unknown.status).toBe(404);
    await waitForLine(child.stdout!, (line) => line.includes('no-such-operation')).catch(() => undefined);
    child.kill('SIGINT');
    expect(await exitOf(child)).toBe(1);
    expect(stdout).toContain(
      '✗ unknown operation GET /v3/no-such-operation → 404: operation: expected a method and path the document declares, got GET /no-such-operation',
    );
    expect(stdout).toContain('3 exchanges, 0 webhook deliveries, 1 departure');
    const lines = parseRecording(readFileSync(file, 'utf8'));
    expect(lines.map((line) => ('operation' in line ? line.operation : 'webhook'))).toEqual([
      'createAccessToken',
      'listCustomers',
      null,
    ]);
  });

  it('replay: 0 differences against a sandbox (exit 0), the JSON report with --json', async () => {
    const text = await runCli(['replay', recorded.file, '--target', `${server.url}/v3`]);
    expect(text.stderr).toBe('');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/17 of 17 exchanges replayed .* 0 differences\n$/);
    const json = await runCli(['replay', recorded.file, '--target', `${server.url}/v3`, '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      format: 'credit-sandbox-replay',
      version: 1,
      summary: { exchanges: 17, differences: 0 },
    });
  });

  it('scenario from-recording writes a scenario file that scenario validate accepts', async () => {
    const output = join(dir, 'recorded-session.yaml');
    const made = await runCli(['scenario', 'from-recording', recorded.file, '-o', output]);
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(/^wrote .*recorded-session\.yaml: scenario recorded-session, \d+ steps/);
    expect(existsSync(output)).toBe(true);
    const valid = await runCli(['scenario', 'validate', output]);
    expect(valid.stdout).toBe(`✓ ${output}\n`);
    expect(valid.code).toBe(0);
  });

  it('says what is wrong with the command line (exit 2)', async () => {
    const upstream = await runCli(['proxy', '--upstream', 'http://127.0.0.1:9/api']);
    expect(upstream.code).toBe(2);
    expect(upstream.stderr).toContain('--upstream must end in /v3');
    const missing = await runCli(['replay', join(dir, 'missing.ndjson'), '--target', `${server.url}/v3`]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('could not read the recording');
    const name = await runCli([
      'scenario',
      'from-recording',
      recorded.file,
      '-o',
      join(dir, 'Bad_Name.yaml'),
    ]);
    expect(name.code).toBe(2);
    expect(name.stderr).toContain('must be <kebab-case-name>.yaml');
  });
});
