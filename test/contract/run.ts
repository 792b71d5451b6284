/**
 * `npm run test:contract`: Specmatic contract tests against a running sandbox, from the sandbox's
 * own OpenAPI document and its named examples. Starts a seeded, frozen sandbox on 127.0.0.1, gets a
 * token, runs Specmatic (Java 17+) with `--strict` (only the examples, no invented requests), prints
 * how many tests ran, and with `--json <file>` writes {numPassedTests, numFailedTests} for CI.
 * Exit code 0 only when at least one test ran and none failed.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import { startServer } from '../../src/server.js';

const jsonAt = process.argv.indexOf('--json');
const jsonFile = jsonAt > 0 ? process.argv[jsonAt + 1] : undefined;
const jar = join(dirname(createRequire(import.meta.url).resolve('specmatic/package.json')), 'specmatic.jar');
const work = mkdtempSync(join(tmpdir(), 'credit-sandbox-contract-'));

const server = await startServer({
  port: 0,
  host: '127.0.0.1',
  clockMode: 'frozen',
  webhookHttpHosts: [],
  rateLimit: 0,
  seed: 'contract-tests',
  startTimeMs: Date.parse('2026-03-02T12:00:00.000Z'),
  webhookTimeoutMs: 1000,
  credential: { clientId: DEFAULT_CLIENT_ID, clientSecret: DEFAULT_CLIENT_SECRET },
  log: { info: () => {}, error: (message, error) => console.error(message, error) },
});

let passed = 0;
let failed = 0;
let run = 0;
try {
  const basic = Buffer.from(`${DEFAULT_CLIENT_ID}:${DEFAULT_CLIENT_SECRET}`).toString('base64');
  const tokenResponse = await fetch(`${server.url}/v3/auth/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}` },
  });
  const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
  const spec = join(work, 'openapi.json');
  writeFileSync(spec, await (await fetch(`${server.url}/v3/openapi.json`)).text());

  const output = await new Promise<string>((resolve, reject) => {
    // Specmatic reads a real token from an environment variable named like the security scheme.
    const child = spawn(
      'java',
      [
        '-jar',
        jar,
        'test',
        spec,
        `--testBaseURL=${server.url}/v3`,
        '--strict',
        `--junitReportDir=${join(work, 'junit')}`,
      ],
      {
        cwd: work,
        env: { ...process.env, oauth2: token, bearerAuth: token },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let text = '';
    const keep = (chunk: Buffer) => {
      text += chunk.toString();
      process.stdout.write(chunk);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('close', () => resolve(text));
  });
  const summary = /Tests run: (\d+), Successes: (\d+), Failures: (\d+), WIP: (\d+), Errors: (\d+)/.exec(
    output,
  );
  if (summary) {
    run = Number(summary[1]);
    passed = Number(summary[2]);
    failed = Number(summary[3]) + Number(summary[5]);
  } else {
    console.error('contract: Specmatic printed no summary (is Java 17+ installed? `java -version`)');
    failed = 1;
  }
} finally {
  await server.close();
}

console.log(`\ncontract tests (Specmatic): ${run} run, ${passed} passed, ${failed} failed`);
if (jsonFile) writeFileSync(jsonFile, JSON.stringify({ numPassedTests: passed, numFailedTests: failed }));
process.exit(run > 0 && failed === 0 ? 0 : 1);
