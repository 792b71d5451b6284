import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestSandbox } from '../support/sandbox.js';

const SCENARIO = `name: snapshot-round-trip
description: Saves the world, changes it and restores it.
steps:
  - snapshot: { name: before, replace: true }
    expect: response.body.counts.customers == 0
  - name: a customer that the restore takes away
    request:
      method: POST
      path: /v3/customers
      body: { cpf: "52998224725", name: Temporary }
    expect_status: 201
  - restore: before
  - name: the world is as saved
    request: { method: GET, path: /v3/customers }
    expect: response.body.data.length == 0
`;

describe('scenario steps snapshot: and restore:', () => {
  it('save and restore the calling partner in the middle of a run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'snapshot-scenarios-'));
    writeFileSync(join(dir, 'snapshot-round-trip.yaml'), SCENARIO);
    const sandbox = createTestSandbox({ scenarioDirs: [dir] });
    const run = await sandbox.json<{ status: string; steps: { name: string; status: string }[] }>(
      'POST',
      '/v3/sandbox/scenarios/snapshot-round-trip/runs',
    );
    expect(run.status).toBe(200);
    expect(run.body.steps.map((s) => [s.name, s.status])).toEqual([
      ['save snapshot before', 'passed'],
      ['a customer that the restore takes away', 'passed'],
      ['restore snapshot before', 'passed'],
      ['the world is as saved', 'passed'],
    ]);
    expect(run.body.status).toBe('passed');
    const kept = await sandbox.json<{ data: { name: string }[] }>('GET', '/v3/sandbox/snapshots');
    expect(kept.body.data.map((s) => s.name)).toEqual(['before']);
  });
});
