import { describe, expect, it } from 'vitest';
import { FIXTURES_DIR } from './catalog.js';
import { parseScenario, ScenarioFileError } from './load.js';

const head = 'name: demo\ndescription: A demo.\nsteps:\n';

function parse(steps: string) {
  return parseScenario(`${head}${steps}`, {
    displayName: 'scenarios/demo.yaml',
    expectedName: 'demo',
    fixturesDir: FIXTURES_DIR,
  });
}

function refusal(steps: string): string {
  try {
    parse(steps);
  } catch (error) {
    if (error instanceof ScenarioFileError) return error.message;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('fault steps', () => {
  it('become the POST (or DELETE) a partner would send', () => {
    const scenario = parse(
      [
        '  - fault: { match: { method: POST, path: /loans }, action: { status: 502, after_processing: true }, times: 1 }',
        '  - fault: { match: { path: "/customers/{customer_id}" }, action: { delay: { min: 100ms, max: 2s } }, probability: 0.5, expires_in: 10m }',
        '  - fault: { clear: true }',
      ].join('\n'),
    );
    expect(scenario.steps[0]).toMatchObject({
      kind: 'request',
      name: 'fault POST /loans: {"status":502,"after_processing":true}',
      request: {
        method: 'POST',
        path: '/v3/sandbox/faults',
        body: {
          match: { method: 'POST', path: '/loans' },
          action: { status: 502, after_processing: true },
          times: 1,
        },
      },
      expectStatus: [201],
    });
    expect(scenario.steps[1]).toMatchObject({
      request: {
        body: {
          match: { path: '/customers/{customer_id}' },
          action: { delay: { min: '100ms', max: '2s' } },
          probability: 0.5,
          expires_in: '10m',
        },
      },
    });
    expect(scenario.steps[2]).toMatchObject({
      kind: 'request',
      name: 'clear fault rules',
      request: { method: 'DELETE', path: '/v3/sandbox/faults' },
      expectStatus: [200],
    });
  });

  it('say what is wrong with a malformed fault mapping', () => {
    expect(refusal('  - fault: { action: { status: 503 } }')).toMatch(/fault needs match and action/);
    expect(refusal('  - fault: { match: { path: /loans }, action: { status: 503 }, often: 1 }')).toMatch(
      /fault: .*fault takes match and action/,
    );
    expect(refusal('  - fault: { clear: true, times: 1 }')).toMatch(/takes nothing else/);
    expect(refusal('  - fault: { clear: true }\n    advance: 1d')).toMatch(/cannot be combined with advance/);
  });
});
