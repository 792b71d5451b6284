import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createTestSandbox } from '../support/sandbox.js';

const run = promisify(execFile);
const cli = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin/cli.js');
const config = join(import.meta.dirname, '../../redocly.yaml');

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer?: string }[];
}

/**
 * The served document, as Redocly CLI's recommended rules read it (redocly.yaml lists the rules
 * turned off, each with its reason). Generic: every operation added later is linted too.
 */
describe('the served OpenAPI document under @redocly/cli lint', () => {
  it('has 0 errors and 0 warnings', async () => {
    const sandbox = createTestSandbox();
    const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, await (await sandbox.app.request('/v3/openapi.json')).text());
      const report = join(dir, 'report.json');
      // Exits non-zero on errors; the JSON report says what, so read it either way.
      await run(process.execPath, [cli, 'lint', file, `--config=${config}`, '--format=json'], {
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        maxBuffer: 64 * 1024 * 1024,
      })
        .then(({ stdout }) => writeFileSync(report, stdout))
        .catch((error: { stdout?: string }) => writeFileSync(report, error.stdout ?? ''));
      const { problems } = JSON.parse(readFileSync(report, 'utf8')) as { problems: LintProblem[] };
      const lines = problems.map(
        (p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location.map((l) => l.pointer).join(', ')}`,
      );
      expect(lines).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
