// biome-ignore-all lint/suspicious/noTemplateCurlyInString: scenario files write placeholders as ${…} inside plain strings
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenarioDirs, parseScenario } from './load.js';
import {
  type IncomingResponse,
  type OutgoingRequest,
  ParamError,
  type RunnerDeps,
  resolveParams,
  runScenario,
} from './runner.js';

/** A fake API: a loan that becomes active once the clock has moved 3 s; every request is recorded. */
function fakeApi() {
  const sent: OutgoingRequest[] = [];
  let clockSeconds = 0;
  let realMs = 0;
  const deps: RunnerDeps = {
    async send(request) {
      sent.push(request);
      const reply = (status: number, body: unknown): IncomingResponse => ({ status, headers: {}, body });
      if (request.path === '/v3/sandbox/clock/advance') {
        clockSeconds += Number(/^(\d+)s$/.exec((request.body as { by: string }).by)?.[1] ?? 0);
        return reply(200, { now: `t+${clockSeconds}s`, frozen: true });
      }
      if (request.path === '/v3/loans/ln_1') {
        return reply(200, { id: 'ln_1', status: clockSeconds >= 3 ? 'active' : 'processing' });
      }
      if (request.path === '/v3/loans') {
        return reply(422, { code: 'simulation_superseded', detail: 'Simulation sim_1 is not the latest.' });
      }
      return reply(404, {
        code: 'route_not_found',
        detail: `No endpoint ${request.method} ${request.path}.`,
      });
    },
    random: (name) => `r-${name}`,
    fixture: () => ({ bytes: new Uint8Array(1), contentType: 'application/pdf' }),
    monotonicMs: () => realMs,
    sleep: async (ms) => {
      realMs += ms;
    },
    runId: 'run_1',
  };
  return { deps, sent };
}

const scenario = (steps: string, params = '') =>
  parseScenario(`name: demo\ndescription: d\n${params}steps:\n${steps}`, { displayName: 'demo.yaml' });

describe('running a scenario', () => {
  it('stops at the first failing step, says why, and skips the rest', async () => {
    const { deps } = fakeApi();
    const run = await runScenario(
      scenario(`  - name: read the loan
    request: { method: GET, path: /v3/loans/ln_1 }
    capture: { loan: body }
  - name: it is active
    expect: loan.status == active
  - name: never runs
    advance: 1s
`),
      {},
      deps,
    );
    expect(run.status).toBe('failed');
    expect(run.failed_step).toEqual({
      index: 2,
      name: 'it is active',
      detail: 'expected loan.status == active, but loan.status is "processing"',
    });
    expect(run.steps.map((s) => s.status)).toEqual(['passed', 'failed', 'skipped']);
    expect(run.steps[0]?.response).toEqual({ status: 200, body: { id: 'ln_1', status: 'processing' } });
  });

  it('still runs `always` steps (clean-up) after a failure, explains the failure and returns the captures', async () => {
    const { deps, sent } = fakeApi();
    const run = await runScenario(
      scenario(`  - name: read the loan
    request: { method: GET, path: /v3/loans/ln_1 }
    capture: { loan: body }
  - name: it is active
    expect: loan.status == active
    explain: [loan.id, loan.missing]
  - name: skipped
    advance: 1s
  - name: clean up
    request: { method: GET, path: "/v3/loans/\${loan.id}" }
    always: true
`),
      {},
      deps,
    );
    expect(run.steps.map((s) => s.status)).toEqual(['passed', 'failed', 'skipped', 'passed']);
    expect(run.failed_step).toEqual({
      index: 2,
      name: 'it is active',
      detail:
        'expected loan.status == active, but loan.status is "processing" (loan.id is "ln_1"; loan.missing is undefined)',
    });
    expect(sent.map((r) => r.path)).toEqual(['/v3/loans/ln_1', '/v3/loans/ln_1']);
    expect(run.captured).toEqual({ loan: { id: 'ln_1', status: 'processing' } });
  });

  it('rejects an explain that is not a path', () => {
    const bad = `  - expect: params.x == 1
    explain: "a b"
`;
    expect(() => scenario(bad, 'params: { x: 1 }\n')).toThrow(/explain: /);
  });

  it("reports an unexpected status with the problem's own words", async () => {
    const { deps } = fakeApi();
    const run = await runScenario(
      scenario('  - request: { method: POST, path: /v3/loans, body: { a: 1 } }\n    expect_status: 201\n'),
      {},
      deps,
    );
    expect(run.failed_step?.detail).toBe(
      'POST /v3/loans → expected status 201, got 422 simulation_superseded: Simulation sim_1 is not the latest.',
    );
  });

  it('waits by advancing the clock until the condition holds, re-reading each time', async () => {
    const { deps, sent } = fakeApi();
    const run = await runScenario(
      scenario(`  - wait_until: loan.status == active
    request: { method: GET, path: /v3/loans/ln_1 }
    capture: { loan: body }
    every: 1s
    within: 10s
  - expect: loan.status == active
`),
      {},
      deps,
    );
    expect(run.status).toBe('passed');
    expect(run.steps[0]?.detail).toBe('loan.status is "active" (after advancing the clock 3s, 4 tries)');
    expect(sent.filter((r) => r.path === '/v3/sandbox/clock/advance')).toHaveLength(3);
  });

  it('gives up when the clock bound is reached, showing the last value', async () => {
    const { deps } = fakeApi();
    const run = await runScenario(
      scenario(`  - wait_until: loan.status == active
    request: { method: GET, path: /v3/loans/ln_1 }
    capture: { loan: body }
    every: 1s
    within: 2s
`),
      {},
      deps,
    );
    expect(run.failed_step?.detail).toBe(
      'still not true after advancing the clock 2s in steps of 1s: expected loan.status == active, but loan.status is "processing"',
    );
  });

  it('polls in real time up to its timeout when no clock step is given', async () => {
    const { deps } = fakeApi();
    const run = await runScenario(
      scenario(`  - wait_until: loan.status == active
    request: { method: GET, path: /v3/loans/ln_1 }
    capture: { loan: body }
    timeout: 1s
    interval: 250ms
`),
      {},
      deps,
    );
    expect(run.failed_step?.detail).toMatch(
      /^still not true after 1s of real time: expected loan.status == active/,
    );
  });

  it('bounds repeated requests with max_tries', async () => {
    const { deps, sent } = fakeApi();
    const run = await runScenario(
      scenario(`  - wait_until: loan.status == finished
    request: { method: GET, path: /v3/loans/ln_1 }
    capture: { loan: body }
    interval: 0ms
    max_tries: 5
`),
      {},
      deps,
    );
    expect(run.failed_step?.detail).toMatch(/^still not true after 5 tries: /);
    expect(sent).toHaveLength(5);
  });

  it('runs included scenarios with their own params and shares their captures', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'include-'));
    writeFileSync(
      join(dir, 'read-loan.yaml'),
      'name: read-loan\ndescription: r\nparams: { id: { required: true } }\nsteps:\n  - request: { method: GET, path: "/v3/loans/${params.id}" }\n    capture: { loan: body }\n',
    );
    writeFileSync(
      join(dir, 'outer.yaml'),
      'name: outer\ndescription: o\nsteps:\n  - include: read-loan\n    params: { id: ln_1 }\n  - expect: loan.id == ln_1\n  - include: read-loan\n    params: { id: ln_2 }\n',
    );
    const { deps } = fakeApi();
    const outer = loadScenarioDirs([dir]).get('outer');
    if (!outer) throw new Error('outer.yaml did not load');
    const run = await runScenario(outer, {}, deps);
    expect(run.steps.map((s) => [s.status, s.detail])).toEqual([
      ['passed', 'ran 1 step of read-loan; captured loan'],
      ['passed', 'loan.id is "ln_1"'],
      [
        'failed',
        'read-loan step 1 ("GET /v3/loans/${params.id}") failed: GET /v3/loans/ln_2 → expected a 2xx status, got 404 route_not_found: No endpoint GET /v3/loans/ln_2.',
      ],
    ]);
  });
});

describe('run params', () => {
  const s = scenario(
    '  - advance: 1s\n',
    'params:\n  loan_id: { required: true }\n  n: { type: integer, default: 3 }\n  cpf: "${random.cpf}"\n',
  );

  it('fills defaults (drawing templates once) and converts text to the declared type', () => {
    expect(resolveParams(s, { loan_id: 'ln_1', n: '7' }, (name) => `r-${name}`)).toEqual({
      loan_id: 'ln_1',
      n: 7,
      cpf: 'r-cpf',
    });
  });

  it('names every unknown, missing or mistyped param', () => {
    let error: unknown;
    try {
      resolveParams(s, { n: '2.5', nope: 'x' }, () => '');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ParamError);
    expect((error as ParamError).problems).toEqual([
      { param: 'params.nope', detail: 'scenario "demo" has no param "nope" (params: loan_id, n, cpf)' },
      { param: 'params.loan_id', detail: 'param "loan_id" is required' },
      { param: 'params.n', detail: 'param "n" must be an integer, got "2.5"' },
    ]);
  });
});
