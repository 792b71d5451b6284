import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Difference } from '../../src/drift/structural-diff.js';
import type { Contract } from '../../src/proxy/contract.js';
import { loadContract } from '../../src/proxy/contract-load.js';
import { isWebhookLine, type RecordingLine } from '../../src/proxy/recording-format.js';
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
  });
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
  });

  it('without a credential it replays as a new partner made with POST /v3/sandbox/partners', async () => {
    const report = await replay({
      lines: plain.lines,
      source: plain.file,
      target: `${server.url}/v3`,
      bootstrap: BOOTSTRAP,
    });
    expect(report.summary.differences).toBe(0);
    expect(report.client_id).not.toBe(DEFAULT_CREDENTIAL.client_id);
    // It lives a day (for a look at what the replay left), then the sandbox removes it.
    const bearer = await tokenFor(`${server.url}/v3`, DEFAULT_CREDENTIAL);
    const listed = await fetch(`${server.url}/v3/sandbox/partners?limit=100`, {
      headers: { authorization: `Bearer ${bearer}` },
    });
    const partners = ((await listed.json()) as { data: Array<{ name: string; expires_at: string | null }> })
      .data;
    const made = partners.find((p) => p.name.startsWith('replay of'));
    const lifetime = Date.parse(made?.expires_at ?? '') - Date.now();
    expect(lifetime).toBeGreaterThan(23 * 3_600_000);
    expect(lifetime).toBeLessThanOrEqual(24 * 3_600_000);
    // An app that only polls: the answers alone tell the replay which moves were made outside the API.
    const polling = plain.lines.filter((line) => !isWebhookLine(line));
    const fromAnswers = await replay({
      lines: polling,
      source: plain.file,
      target: `${server.url}/v3`,
      bootstrap: BOOTSTRAP,
    });
    // 0 differences: every status the answers showed (enum values are compared) was reached.
    expect(differencesOf(fromAnswers)).toEqual([]);
    expect(fromAnswers.summary.moves).toBeGreaterThanOrEqual(5);
  });

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
    });
  }

  it('the scenario generated from the recording runs green, reaching the recorded states, and sets up a Pact provider state', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'recorded-scenario-'));
    // The recording as made, and two other orders a recording may show: an app that only polls (no
    // deliveries), and deliveries that all arrive late (after the last exchange).
    const webhooks = plain.lines.filter(isWebhookLine);
    const exchanges = plain.lines.filter((line) => !isWebhookLine(line));
    const variants: Array<[string, RecordingLine[]]> = [
      ['recorded-session', [...plain.lines]],
      ['recorded-session-polling', exchanges],
      ['recorded-session-late', [...exchanges, ...webhooks]],
    ];
    const steps = new Map<string, number>();
    for (const [name, lines] of variants) {
      const scenario = scenarioFromRecording(lines, { name, source: plain.file });
      expect(scenario.skipped).toEqual([
        "line 2: webhook endpoints are the receiver's plumbing, not the state",
      ]);
      writeFileSync(join(dir, `${name}.yaml`), scenario.yaml);
      steps.set(name, scenario.steps);
    }
    const sandbox = await startQuietServer({ scenarioDirs: [dir] });
    try {
      const base = `${sandbox.url}/v3`;
      for (const [name] of variants) {
        const credential = await newPartner(base, DEFAULT_CREDENTIAL);
        const token = await tokenFor(base, credential);
        const answer = await fetch(`${base}/sandbox/scenarios/${name}/runs`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ params: {} }),
        });
        const run = (await answer.json()) as { status: string; failed_step?: unknown; steps: unknown[] };
        expect(run.failed_step, name).toBeUndefined();
        expect(run.status).toBe('passed');
        expect(run.steps).toHaveLength(steps.get(name)!);
        // The partner is where the recording ended: the loan active, its first installment paid.
        const report = { client_id: credential.client_id } as ReplayReport;
        expect(await stateOf(base, report, credential.client_secret), name).toEqual({
          loan: 'active',
          first: 'paid',
        });
      }

      // As a provider state, on another partner: set up (the captures come back), then torn down.
      const other = await newPartner(base, DEFAULT_CREDENTIAL);
      const basic = `Basic ${Buffer.from(`${other.client_id}:${other.client_secret}`).toString('base64')}`;
      const change = (action: string) =>
        fetch(`${base}/sandbox/provider-states`, {
          method: 'POST',
          headers: { authorization: basic, 'content-type': 'application/json' },
          body: JSON.stringify({ state: 'the recorded session recorded-session', params: {}, action }),
        });
      const setup = await change('setup');
      expect(setup.status).toBe(200);
      expect(await setup.json()).toMatchObject({ loan_id: expect.stringMatching(/^ln_/) });
      const teardown = await change('teardown');
      expect(teardown.status).toBe(200);
      await teardown.text();
    } finally {
      await sandbox.close();
    }
  });
});
