import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { docBlocks } from '../support/doc-blocks.js';
import { runDocChain } from '../support/doc-run.js';

// The docs test must fail when a documented command is wrong, even when curl itself would exit 0:
// a fixture page whose block writes `$BASE/v3/…` (BASE already ends in /v3) answers 404 and fails;
// the same block with the right path passes.
function fixture(block: string) {
  const root = mkdtempSync(join(tmpdir(), 'docs-fixture-'));
  mkdirSync(join(root, 'docs'));
  writeFileSync(join(root, 'docs/faults.md'), `# Faults\n\n\`\`\`sh\n${block}\n\`\`\`\n`);
  return docBlocks(root, 'docs/faults.md');
}

const RULE = `-H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \\
  -d '{"match": {"method": "POST", "path": "/loans"}, "action": {"status": 503}, "times": 1}'`;

it('a documented curl answered 404 fails its block (printing the problem), though curl -s exits 0 on a 404', async () => {
  const res = await runDocChain(
    fixture(`curl -s -X POST "$BASE/v3/sandbox/faults" ${RULE}\necho "not reached"`),
  );
  expect(res.code).not.toBe(0);
  expect(res.output).toContain('No endpoint POST /v3/v3/sandbox/faults');
  expect(res.output).not.toContain('not reached');
});

it('a 404 inside $(…) piped into j fails its block too', async () => {
  const res = await runDocChain(
    fixture(`RULE=$(curl -s -X POST "$BASE/v3/sandbox/faults" ${RULE} | j id)\necho "rule $RULE"`),
  );
  expect(res.code).not.toBe(0);
  expect(res.output).not.toContain('rule ');
});

it('the same block with the one BASE convention passes', async () => {
  const res = await runDocChain(
    fixture(`RULE=$(curl -s -X POST "$BASE/sandbox/faults" ${RULE} | j id)\necho "rule $RULE"`),
  );
  expect(res.output).toMatch(/rule flt_[0-9a-f]+/);
  expect(res.code).toBe(0);
});

it('a call printing its status is checked against the status its comment expects', async () => {
  const call = `curl -s -o /dev/null -w '%{http_code}\\n' "$BASE/customers" -H "Authorization: Bearer $TOKEN"`;
  const wrong = await runDocChain(fixture(`${call}   # 404`));
  expect(wrong.code).not.toBe(0);
  expect(wrong.output).toContain('docs-test: expected HTTP 404, got 200');
  const right = await runDocChain(fixture(`${call}   # 200`));
  expect(right.code, right.output).toBe(0);
});

it('a call printing its status without saying which it expects is refused', async () => {
  await expect(
    runDocChain(fixture(`curl -s -w '%{http_code}' "$BASE/customers" -H "Authorization: Bearer $TOKEN"`)),
  ).rejects.toThrow(/must say which status it expects/);
});
