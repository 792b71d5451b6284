import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Difference } from '../../src/drift/structural-diff.js';
import type { Contract } from '../../src/proxy/contract.js';
import { loadContract } from '../../src/proxy/contract-load.js';
import { replay } from '../../src/proxy/replay.js';
import type { ReplayReport } from '../../src/proxy/replay-report.js';
import { scenarioFromRecording } from '../../src/proxy/scenario-from-recording.js';
import type { RunningServer } from '../../src/server.js';
import type { Alteration } from '../support/altered-upstream.js';
import { DEFAULT_CREDENTIAL, type RecordedSession, recordSession } from '../support/proxy-recording.js';
import { newPartner, tokenFor } from '../support/proxy-session.js';
import { startQuietServer } from '../support/test-server.js';

const BOOTSTRAP = { clientId: DEFAULT_CREDENTIAL.client_id, clientSecret: DEFAULT_CREDENTIAL.client_secret };

/** Each alteration the replay must report, and the differences that are exactly it (recorded → sandbox). */
const ALTERED: Array<[Alteration, string, Difference[]]> = [
  [
    'renamed-field',
    'createCustomer',
    [
      { at: 'body.externalId', kind: 'missing', expected: 'present', actual: 'absent' },
      { at: 'body.external_id', kind: 'unexpected', expected: 'absent', actual: 'present' },
    ],
  ],
  [
    'undeclared-status',
    'createSimulation',
    [{ at: 'status', kind: 'status', expected: '200', actual: '201' }],
  ],
  [
    'missing-location',
    'createLoan',
    [{ at: 'header location', kind: 'header', expected: 'absent', actual: 'present' }],
  ],
];

function differencesOf(report: ReplayReport): Array<{ operation: string | null } & Difference> {
  return report.entries.flatMap((entry) =>
    entry.differences.map((d) => ({ operation: entry.operation, ...d })),
  );
}

/** What the replay's partner holds at the end: its loan and that loan's first installment. */
async function stateOf(base: string, report: ReplayReport, secret: string) {
  const token = await tokenFor(base, { client_id: report.client_id, client_secret: secret });
  const get = async (path: string) =>
    (await (await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      data: Array<Record<string, unknown>>;
    };
  const loans = await get('/loans');
  const loan = loans.data[0]!;
  const transactions = await get(`/loans/${String(loan.id)}/transactions`);
  return { loan: loan.status, first: transactions.data.find((tx) => tx.installment_number === 1)?.status };
}

describe('replay', () => {
  let server: RunningServer;
  let contract: Contract;
  let plain: RecordedSession;
  beforeAll(async () => {
    server = await startQuietServer();
    contract = await loadContract(`${server.url}/v3/openapi.json`);
    plain = await recordSession(server.url, contract);
  }, 120_000);
  afterAll(() => server.close());

  it('a recording made against the sandbox: 0 differences, the moves made outside the API made again', async () => {
    const credential = await newPartner(`${server.url}/v3`, DEFAULT_CREDENTIAL);
    const report = await replay({
      lines: plain.lines,
      source: plain.file,
      target: `${server.url}/v3`,
      credential: { clientId: credential.client_id, clientSecret: credential.client_secret },
      bootstrap: BOOTSTRAP,
    });
    expect(differencesOf(report)).toEqual([]);
    expect(report.summary).toMatchObject({ exchanges: 17, replayed: 17, skipped: 0, differences: 0 });
    const moves = report.entries.flatMap((entry) => entry.moves);
    for (const move of [
      /^the biometrics capture of customer cust_\w+ completes$/,
      /^the KYC review approves customer cust_\w+$/,
      /^the clock moved \d+ × 1s$/,
      /^the customer signs loan ln_\w+$/,
      /^installment 1 of loan ln_\w+ receives \d+\.\d{2}$/,
    ]) {
      expect(
        moves.some((text) => move.test(text)),
        `${move} in ${JSON.stringify(moves)}`,
      ).toBe(true);
    }
    // The target followed the recording to its last state: the loan active, the first installment paid.
    expect(await stateOf(`${server.url}/v3`, report, credential.client_secret)).toEqual({
      loan: 'active',
      first: 'paid',
    });
  }, 120_000);

  it('without a credential it replays as a new partner made with POST /v3/sandbox/partners', async () => {
    const report = await replay({
      lines: plain.lines,
      source: plain.file,
      target: `${server.url}/v3`,
      bootstrap: BOOTSTRAP,
    });
    expect(report.summary.differences).toBe(0);
    expect(report.client_id).not.toBe(DEFAULT_CREDENTIAL.client_id);
  }, 120_000);

  for (const [alteration, operation, differences] of ALTERED) {
    it(`a recording made against an altered upstream (${alteration}): exactly that difference`, async () => {
      const recorded = await recordSession(server.url, contract, alteration);
      const report = await replay({
        lines: recorded.lines,
        source: recorded.file,
        target: `${server.url}/v3`,
        bootstrap: BOOTSTRAP,
      });
      expect(differencesOf(report)).toEqual(differences.map((d) => ({ operation, ...d })));
    }, 120_000);
  }

  it('the scenario generated from the recording runs green, reaching the recorded states, and sets up a Pact provider state', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'recorded-scenario-'));
    const scenario = scenarioFromRecording(plain.lines, { name: 'recorded-session', source: plain.file });
    expect(scenario.skipped).toEqual([
      "line 2: webhook endpoints are the receiver's plumbing, not the state",
    ]);
    writeFileSync(join(dir, 'recorded-session.yaml'), scenario.yaml);
    const sandbox = await startQuietServer({ scenarioDirs: [dir] });
    try {
      const base = `${sandbox.url}/v3`;
      const credential = await newPartner(base, DEFAULT_CREDENTIAL);
      const token = await tokenFor(base, credential);
      const post = (path: string, body: unknown) =>
        fetch(`${base}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const run = (await (await post('/sandbox/scenarios/recorded-session/runs', { params: {} })).json()) as {
        status: string;
        failed_step?: unknown;
        steps: Array<{ status: string }>;
      };
      expect(run.failed_step).toBeUndefined();
      expect(run.status).toBe('passed');
      expect(run.steps).toHaveLength(scenario.steps);
      const loans = (await (
        await fetch(`${base}/loans`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as {
        data: Array<{ id: string; status: string }>;
      };
      expect(loans.data.map((loan) => loan.status)).toEqual(['active']);

      // As a provider state, on another partner: set up (the captures come back), then torn down.
      const other = await newPartner(base, DEFAULT_CREDENTIAL);
      const state = { state: 'the recorded session recorded-session', params: {} };
      const url = `${base}/sandbox/provider-states`;
      const basic = `Basic ${Buffer.from(`${other.client_id}:${other.client_secret}`).toString('base64')}`;
      const setup = await fetch(url, {
        method: 'POST',
        headers: { authorization: basic, 'content-type': 'application/json' },
        body: JSON.stringify({ ...state, action: 'setup' }),
      });
      expect(setup.status).toBe(200);
      expect(await setup.json()).toMatchObject({ loan_id: expect.stringMatching(/^ln_/) });
    } finally {
      await sandbox.close();
    }
  }, 180_000);
});
