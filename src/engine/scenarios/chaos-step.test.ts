// biome-ignore-all lint/suspicious/noTemplateCurlyInString: scenario files write placeholders as ${…} inside plain strings
import { describe, expect, it } from 'vitest';
import { FIXTURES_DIR } from './catalog.js';
import { parseScenario, ScenarioFileError } from './load.js';

const head = 'name: demo\ndescription: A demo.\nparams:\n  endpoint_id: we_1\nsteps:\n';

function parse(steps: string) {
  return parseScenario(`${head}${steps}`, {
    displayName: 'scenarios/demo.yaml',
    expectedName: 'demo',
    fixturesDir: FIXTURES_DIR,
  });
}

describe('chaos steps', () => {
  it('become the PUT (or DELETE) a partner would send', () => {
    const scenario = parse(
      [
        '  - chaos: { endpoint: "${params.endpoint_id}", duplicate_rate: 0.5, max_delay: 30s, reorder: true }',
        '    expect: response.body.enabled == true',
        '  - chaos: { endpoint: "${params.endpoint_id}", off: true }',
      ].join('\n'),
    );
    expect(scenario.steps[0]).toMatchObject({
      kind: 'request',
      name: 'chaos for ${params.endpoint_id}',
      request: {
        method: 'PUT',
        path: '/v3/sandbox/webhooks/endpoints/${params.endpoint_id}/chaos',
        body: { duplicate_rate: 0.5, max_delay: '30s', reorder: true },
      },
      expectStatus: [200],
    });
    expect(scenario.steps[1]).toMatchObject({
      kind: 'request',
      request: { method: 'DELETE', path: '/v3/sandbox/webhooks/endpoints/${params.endpoint_id}/chaos' },
    });
  });

  it('say what is wrong with a malformed chaos mapping', () => {
    const message = (steps: string) => {
      try {
        parse(steps);
      } catch (error) {
        if (error instanceof ScenarioFileError) return error.message;
        throw error;
      }
      throw new Error('expected a refusal');
    };
    expect(message('  - chaos: { duplicate_rate: 0.5 }')).toMatch(/chaos\.endpoint: .*chaos takes endpoint/);
    expect(message('  - chaos: { endpoint: we_1, often: 1 }')).toMatch(/chaos/);
    expect(message('  - chaos: { endpoint: we_1, off: true, drop_rate: 1 }')).toMatch(
      /takes no other settings/,
    );
    expect(message('  - chaos: { endpoint: we_1 }\n    advance: 1d')).toMatch(
      /cannot be combined with advance/,
    );
  });
});
