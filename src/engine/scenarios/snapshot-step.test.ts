// biome-ignore-all lint/suspicious/noTemplateCurlyInString: scenario files write placeholders as ${…} inside plain strings
import { describe, expect, it } from 'vitest';
import { FIXTURES_DIR } from './catalog.js';
import { parseScenario, ScenarioFileError } from './load.js';

const head = 'name: demo\ndescription: A demo.\nparams:\n  state: kyc-approved\nsteps:\n';

function parse(steps: string) {
  return parseScenario(`${head}${steps}`, {
    displayName: 'scenarios/demo.yaml',
    expectedName: 'demo',
    fixturesDir: FIXTURES_DIR,
  });
}

function message(steps: string): string {
  try {
    parse(steps);
  } catch (error) {
    if (error instanceof ScenarioFileError) return error.message;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('snapshot and restore steps', () => {
  it('become the POST a partner would send', () => {
    const scenario = parse(
      [
        '  - snapshot: "${params.state}"',
        '  - snapshot: { name: base, replace: true }',
        '    expect: response.body.name == "base"',
        '  - restore: base',
      ].join('\n'),
    );
    expect(scenario.steps[0]).toMatchObject({
      kind: 'request',
      name: 'save snapshot ${params.state}',
      request: { method: 'POST', path: '/v3/sandbox/snapshots', body: { name: '${params.state}' } },
      expectStatus: [201],
    });
    expect(scenario.steps[1]).toMatchObject({
      request: { body: { name: 'base', replace: true } },
      expectStatus: [201],
    });
    expect(scenario.steps[2]).toMatchObject({
      kind: 'request',
      name: 'restore snapshot base',
      request: { method: 'POST', path: '/v3/sandbox/snapshots/base/restore' },
      expectStatus: [200],
    });
  });

  it('say what is wrong with a malformed snapshot or restore step', () => {
    expect(message('  - snapshot: Not-A-Name')).toMatch(/snapshot: a snapshot name is lowercase/);
    expect(message('  - snapshot: { name: a, often: 1 }')).toMatch(/snapshot/);
    expect(message('  - restore: { name: a }')).toMatch(/restore takes the name of a snapshot/);
    expect(message('  - restore: a\n    advance: 1d')).toMatch(/restore cannot be combined with advance/);
    expect(message('  - snapshot: a\n    restore: a')).toMatch(/separate steps/);
  });
});
