import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestSandbox } from '../support/sandbox.js';

const SCENARIO = `name: flaky-loans
description: An active customer, and the next loan creation loses its answer.
steps:
  - fault: { match: { path: /customers }, action: { status: 503 } }
  - include: active-customer
  - fault: { clear: true }
  - fault: { match: { method: POST, path: /loans }, action: { status: 502, after_processing: true }, times: 1 }
    expect: response.body.times_left == 1
`;

describe('scenario fault: steps', () => {
  it("add rules for the partner's client; the run's own steps are never faulted", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'faults-scenarios-'));
    writeFileSync(join(dir, 'flaky-loans.yaml'), SCENARIO);
    const sandbox = createTestSandbox({ scenarioDirs: [dir] });
    const run = await sandbox.json<{ status: string; steps: { name: string; status: string }[] }>(
      'POST',
      '/v3/sandbox/scenarios/flaky-loans/runs',
      { body: {} },
    );
    expect(run.status).toBe(200);
    expect(run.body.status, JSON.stringify(run.body)).toBe('passed');
    const rules = await sandbox.json<{
      data: { match: { method: string; path: string }; action: unknown }[];
    }>('GET', '/v3/sandbox/faults');
    expect(rules.body.data).toEqual([
      expect.objectContaining({
        match: { method: 'POST', path: '/loans' },
        action: { status: 502, after_processing: true },
      }),
    ]);
  });
});
