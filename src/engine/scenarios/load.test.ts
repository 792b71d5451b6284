// biome-ignore-all lint/suspicious/noTemplateCurlyInString: scenario files write placeholders as ${…} inside plain strings
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES_DIR, SHIPPED_SCENARIOS_DIR, scenarioCatalog } from './catalog.js';
import { loadScenarioDirs, parseScenario, ScenarioFileError } from './load.js';

const FILE = 'scenarios/demo.yaml';

/** The messages a file's problems produce (each "file: step n ("name"): problem"). */
function problems(text: string): string[] {
  try {
    parseScenario(text, { displayName: FILE, expectedName: 'demo', fixturesDir: FIXTURES_DIR });
  } catch (error) {
    if (error instanceof ScenarioFileError) return error.message.split('\n');
    throw error;
  }
  throw new Error('expected the file to be refused');
}

const head = 'name: demo\ndescription: A demo.\n';

describe('scenario files: a valid file', () => {
  it('becomes steps with kinds, defaults and parsed expectations', () => {
    const scenario = parseScenario(
      `${head}params:
  cpf: { default: "\${random.cpf}", description: The CPF }
  days: 30
  loan_id: { required: true }
steps:
  - name: register
    request: { method: post, path: /v3/customers, body: { cpf: "\${params.cpf}" } }
    expect_status: 201
    capture: { customer: $.body }
    expect: customer.status == pending_kyc
  - advance: 35d
  - wait_until: [customer.status == active]
    request: { method: GET, path: "/v3/customers/\${customer.id}" }
    capture: { customer: body }
    every: 5s
  - expect: [customer.id != null]
`,
      { displayName: FILE, expectedName: 'demo' },
    );
    expect(scenario.params).toEqual([
      {
        name: 'cpf',
        type: 'string',
        description: 'The CPF',
        default: '${random.cpf}',
        required: false,
        example: undefined,
      },
      {
        name: 'days',
        type: 'integer',
        description: undefined,
        default: 30,
        required: false,
        example: undefined,
      },
      {
        name: 'loan_id',
        type: 'string',
        description: undefined,
        default: undefined,
        required: true,
        example: undefined,
      },
    ]);
    expect(scenario.steps.map((s) => [s.index, s.kind, s.name])).toEqual([
      [1, 'request', 'register'],
      [2, 'advance', 'advance 35d'],
      [3, 'wait', 'wait until customer.status == active'],
      [4, 'expect', 'expect customer.id != null'],
    ]);
    const first = scenario.steps[0];
    expect(first?.kind === 'request' && first.request.method).toBe('POST');
    expect(first?.kind === 'request' && first.capture).toEqual({ customer: 'body' });
  });

  it('every shipped scenario loads, with its includes resolved', () => {
    const catalog = scenarioCatalog();
    expect([...catalog.keys()].sort()).toEqual([
      'active-customer',
      'data-correction',
      'disbursement-failure',
      'early-payoff',
      'happy-path',
      'installment-due-on-holiday',
      'kyc-rejected',
      'kyc-resubmission',
      'loan-awaiting-signature',
      'make-installment-overdue',
      'offer-expiry-and-renewal',
      'overdue-installment',
      'partial-payment',
      'signature-declined',
      'webhook-chaos',
      'webhook-receiver-down',
    ]);
    expect(SHIPPED_SCENARIOS_DIR).toMatch(/scenarios\/?$/);
  });
});

describe('scenario files: problems name the file, the step and what is wrong', () => {
  it('reports YAML syntax errors with line and column', () => {
    expect(problems(`${head}steps:\n  - request: { method: GET\n`)[0]).toMatch(
      /^scenarios\/demo\.yaml:\d+:\d+: invalid YAML: /,
    );
  });

  it('reports missing and malformed top-level fields', () => {
    expect(problems('name: Demo File\nsteps: []\n')).toEqual([
      'scenarios/demo.yaml: name: must be kebab-case, e.g. overdue-installment',
      'scenarios/demo.yaml: description: is required',
      'scenarios/demo.yaml: steps: a scenario needs at least one step',
    ]);
    expect(problems('name: other\ndescription: x\nsteps: [{ advance: 1d }]\n')).toEqual([
      'scenarios/demo.yaml: name "other" must match the file name (demo.yaml), so runs can find it',
    ]);
  });

  it('names the step by number and name, and suggests the key that was meant', () => {
    expect(
      problems(`${head}steps:
  - name: create the loan
    request: { method: POST, path: /v3/loans }
    expected_status: 201
`),
    ).toEqual([
      'scenarios/demo.yaml: step 1 ("create the loan"): unknown key "expected_status" (did you mean "expect_status"?)',
    ]);
  });

  it('refuses a step without a kind, or with two', () => {
    expect(problems(`${head}steps:\n  - name: nothing\n`)).toEqual([
      'scenarios/demo.yaml: step 1 ("nothing"): a step needs one of request, advance, wait_until, expect or include',
    ]);
    expect(
      problems(`${head}steps:\n  - advance: 1d\n    request: { method: GET, path: /v3/loans }\n`),
    ).toEqual(['scenarios/demo.yaml: step 1: advance cannot be combined with request; use separate steps']);
    expect(problems(`${head}steps:\n  - every: 1d\n    expect: a == b\n`)).toEqual([
      'scenarios/demo.yaml: step 1: every only applies to wait_until steps',
    ]);
  });

  it('checks request fields', () => {
    expect(problems(`${head}steps:\n  - request: { method: FETCH, path: v3/loans }\n`)).toEqual([
      expect.stringMatching(
        /^scenarios\/demo\.yaml: step 1: request\.method: Invalid option: expected one of "GET"\|"POST"/,
      ),
      'scenarios/demo.yaml: step 1: request.path: must start with "/", e.g. /v3/customers',
    ]);
    expect(
      problems(
        `${head}steps:\n  - request: { method: POST, path: /x, form: { file: "@../../etc/passwd", other: "@nope.pdf" } }\n`,
      ),
    ).toEqual([
      'scenarios/demo.yaml: step 1: request.form.file: "@../../etc/passwd" must name a file of fixtures/, e.g. @sample.pdf',
      'scenarios/demo.yaml: step 1: request.form.other: fixtures/nope.pdf does not exist (try @sample.pdf, @sample.jpg or @sample.png)',
    ]);
    expect(
      problems(`${head}steps:\n  - request: { method: POST, path: /v3/sandbox/scenarios/demo/runs }\n`),
    ).toEqual([
      'scenarios/demo.yaml: step 1: request.path: a scenario cannot call /v3/sandbox/scenarios; use `include: <scenario>` to run another one',
    ]);
    expect(problems(`${head}steps:\n  - request: { method: GET, path: //elsewhere.example/x }\n`)).toEqual([
      'scenarios/demo.yaml: step 1: request.path: must start with "/", e.g. /v3/customers',
    ]);
  });

  it('checks that every name used was captured before, and every param declared', () => {
    expect(
      problems(`${head}params: { cpf: "1" }
steps:
  - request: { method: GET, path: "/v3/loans/\${loan.id}" }
  - request: { method: GET, path: "/v3/customers/\${params.cfp}" }
    capture: { response: body }
  - expect: loan.status == active
`),
    ).toEqual([
      'scenarios/demo.yaml: step 1: request.path: ${loan.id} uses "loan", which no earlier step captured (in scope: params)',
      'scenarios/demo.yaml: step 2: request.path: ${params.cfp}: no param "cfp" (declared: cpf)',
      'scenarios/demo.yaml: step 2: capture.response: "response" is reserved (params, random, run, response); choose another name',
      'scenarios/demo.yaml: step 3: "loan.status": nothing is named "loan" at this step; capture it first, or quote the text ("loan.status") if you meant a literal',
    ]);
  });

  it('checks expectations, durations and wait bounds', () => {
    expect(
      problems(`${head}steps:
  - request: { method: GET, path: /v3/loans }
    capture: { loan: "body.data[0]" }
  - expect: loan.status
  - expect: response.status == 200
  - advance: 35 days
  - advance: { to: tomorrow }
  - wait_until: loan.status == active
    every: 1 day
    timeout: 5s
  - wait_until: loan.status == active
    within: 1d
  - expect: loan.status == loan.active
`),
    ).toEqual([
      'scenarios/demo.yaml: step 2: "loan.status" is not a comparison; write <value> <op> <value> with op one of == != >= <= > <, e.g. loan.status == active',
      'scenarios/demo.yaml: step 3: "response.status": nothing is named "response" at this step; capture it first, or quote the text ("response.status") if you meant a literal',
      'scenarios/demo.yaml: step 4: advance: "35 days" is not a duration like 90s, 15m, 2h or 35d',
      'scenarios/demo.yaml: step 5: advance.to: "tomorrow" is not a date (YYYY-MM-DD) or date-time',
      'scenarios/demo.yaml: step 6: every: "1 day" is not a duration like 90s, 15m, 2h or 35d',
      'scenarios/demo.yaml: step 6: timeout is for real-time polling; with every, bound the wait with within',
      'scenarios/demo.yaml: step 7: within bounds clock advances; add every: <duration> (e.g. every: 1d)',
      'scenarios/demo.yaml: step 8: "loan.status == loan.active": loan.active reads the captured loan; write "loan.active" (quoted) for the event type, or ${loan.active} for the captured value',
    ]);
  });

  it('checks params: types of defaults and what a default may use', () => {
    expect(
      problems(
        `${head}params:\n  n: { type: integer, default: abc }\n  x: { default: "\${params.n}" }\nsteps: [{ advance: 1d }]\n`,
      ),
    ).toEqual([
      'scenarios/demo.yaml: params.n: default "abc" is not of type integer',
      'scenarios/demo.yaml: params.x: a default may only use ${random.*} (cpf, hex, email, phone), not ${params.n}',
    ]);
  });
});

describe('scenario directories: includes', () => {
  function dir(files: Record<string, string>): string {
    const path = mkdtempSync(join(tmpdir(), 'scenarios-'));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(path, name), text);
    return path;
  }
  const load = (path: string) => {
    try {
      loadScenarioDirs([path]);
    } catch (error) {
      if (error instanceof ScenarioFileError) return error.problems.map((p) => p.message);
      throw error;
    }
    return [];
  };

  it('resolves includes, checks their params and makes their captures visible', () => {
    const path = dir({
      'base.yaml': `name: base\ndescription: b\nparams: { id: { required: true } }\nsteps:\n  - request: { method: GET, path: "/v3/loans/\${params.id}" }\n    capture: { loan: body }\n`,
      'top.yaml': `name: top\ndescription: t\nsteps:\n  - include: base\n    params: { id: ln_1 }\n  - expect: loan.status == active\n`,
    });
    const catalog = loadScenarioDirs([path]);
    const top = catalog.get('top');
    expect(top?.steps[0]?.kind === 'include' && top.steps[0].scenario.name).toBe('base');
  });

  it('reports unknown includes, missing or unknown params, and cycles', () => {
    const path = dir({
      'a.yaml': 'name: a\ndescription: a\nsteps:\n  - include: b\n',
      'b.yaml': 'name: b\ndescription: b\nsteps:\n  - include: a\n',
      'c.yaml': 'name: c\ndescription: c\nparams: { id: { required: true } }\nsteps:\n  - include: nope\n',
      'd.yaml': 'name: d\ndescription: d\nsteps:\n  - include: c\n    params: { idd: x }\n',
    });
    expect(load(path)).toEqual([
      'include: a → b → a is a cycle',
      'include: scenario "b" is invalid (see its own errors)',
      'include: no scenario "nope" (available: a, b, c, d)',
      'include: scenario "c" is invalid (see its own errors)',
    ]);
    const other = dir({
      'c.yaml': 'name: c\ndescription: c\nparams: { id: { required: true } }\nsteps: [{ advance: 1d }]\n',
      'd.yaml': 'name: d\ndescription: d\nsteps:\n  - include: c\n    params: { idd: x }\n',
    });
    expect(load(other)).toEqual([
      'params.idd: scenario "c" has no param "idd" (params: id)',
      'params.id: scenario "c" requires it',
    ]);
  });
});
