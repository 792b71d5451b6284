import { readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { createRoute, z } from '@hono/zod-openapi';
import { issueAccessToken } from '../domain/access-tokens.js';
import { ApiError } from '../domain/errors.js';
import { FIXTURES_DIR, scenarioCatalog } from '../engine/scenarios/catalog.js';
import { ScenarioFileError } from '../engine/scenarios/load.js';
import { randomValues } from '../engine/scenarios/random-values.js';
import { scenarioRunLog } from '../engine/scenarios/run-log.js';
import { ParamError, resolveParams, runScenario } from '../engine/scenarios/runner.js';
import type { Scenario } from '../engine/scenarios/types.js';
import type { AppDeps } from '../http/deps.js';
import { sendJson } from '../http/json-text.js';
import { createRouter } from '../http/router.js';
import { type InProcessBindings, selfFetch } from '../http/self-fetch.js';
import type { JsonText } from '../lib/view-text.js';
import { partnerTransport } from './scenario-transport.js';
import { COMMON_ERRORS, json, listOf, problemResponses } from './schemas/common.js';
import { RunResultSchema, RunScenarioBody, ScenarioSchema } from './schemas/scenarios.js';

const tags = ['Sandbox control'];

const list = createRoute({
  method: 'get',
  path: '/sandbox/scenarios',
  operationId: 'listSandboxScenarios',
  tags,
  summary: 'List the scenarios this sandbox can run, with their params',
  description:
    'Scenario files are YAML (shipped in `scenarios/`, plus any directory given with `--scenarios`). See docs/scenarios.md for the format.',
  responses: {
    200: json(listOf(ScenarioSchema, 'ScenarioList'), 'Scenarios, by name'),
    ...problemResponses(...COMMON_ERRORS),
  },
});

const run = createRoute({
  method: 'post',
  path: '/sandbox/scenarios/{name}/runs',
  operationId: 'runSandboxScenario',
  tags,
  summary: 'Run a scenario now, against the calling partner',
  description:
    "Runs every step in order, synchronously, each request sent through the API exactly as the partner would send it (with the caller's token). Answers 200 whatever the outcome: `status` is `passed` or `failed`, and a failure names the step (`failed_step`) and why. Steps after a failure are `skipped`.",
  request: {
    params: z.object({
      name: z.string().openapi({ param: { name: 'name', in: 'path' }, example: 'happy-path' }),
    }),
    body: { required: false, content: { 'application/json': { schema: RunScenarioBody } } },
  },
  responses: {
    200: json(RunResultSchema, 'The run, step by step'),
    ...problemResponses(400, 404, ...COMMON_ERRORS),
  },
});

const CONTENT_TYPES: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
};

export function sandboxScenarioRoutes(deps: AppDeps) {
  const app = createRouter();
  const catalog = () => {
    try {
      return scenarioCatalog(deps.config.scenarioDirs ?? []);
    } catch (error) {
      if (error instanceof ScenarioFileError) throw new ApiError('scenario_files_invalid', error.message);
      throw error;
    }
  };
  // Loaded on first use (most apps never run a scenario); `serve` loads it at start-up to fail fast.

  // The list's answer, made once per loaded catalog.
  const listTexts = new WeakMap<Map<string, Scenario>, string>();
  app.openapi(list, (c) => {
    const scenarios = catalog();
    let text = listTexts.get(scenarios);
    if (text === undefined) {
      const data = [...scenarios.values()].sort((a, b) => a.name.localeCompare(b.name)).map(scenarioView);
      text = JSON.stringify({ data, has_more: false });
      listTexts.set(scenarios, text);
    }
    return sendJson(c, text as JsonText<{ data: ReturnType<typeof scenarioView>[]; has_more: boolean }>, 200);
  });

  app.openapi(run, async (c) => {
    const scenarios = catalog();
    const name = c.req.valid('param').name;
    const scenario = scenarios.get(name);
    if (!scenario) {
      throw new ApiError(
        'scenario_not_found',
        `Unknown scenario "${name}". Available: ${[...scenarios.keys()].sort().join(', ')}.`,
        { param: 'name' },
      );
    }
    const partnerId = c.get('partner').id;
    const random = randomValues(() => deps.engine.stream(partnerId).ids('rnd_'));
    let params: Record<string, unknown>;
    try {
      params = resolveParams(scenario, c.req.valid('json')?.params ?? {}, random);
    } catch (error) {
      if (!(error instanceof ParamError)) throw error;
      throw new ApiError('validation_failed', `Invalid params for scenario "${name}": ${error.message}.`, {
        param: error.problems[0]?.param,
        errors: error.problems,
      });
    }
    const clientId = c.get('clientId');
    const token = /^Bearer\s+(\S+)/i.exec(c.req.header('authorization') ?? '')?.[1] ?? '';
    const send = partnerTransport({
      fetch: selfFetch(deps),
      token,
      refreshToken: () => {
        const credential = deps.store.credentials.get(clientId);
        // A credential revoked meanwhile gets no new token: the run ends with its 401s.
        if (credential?.status !== 'active' || credential.partner_id !== partnerId) return undefined;
        const key = Buffer.from(deps.store.meta.signing_key, 'base64url');
        return issueAccessToken(
          credential,
          deps.engine.clock(partnerId),
          key,
          deps.engine.stream(partnerId).ids('jti_'),
        ).access_token;
      },
      sleep,
    });
    const runId = deps.engine.stream(partnerId).ids('run_');
    const log = scenarioRunLog(deps);
    const record = log.start({
      id: runId,
      partnerId,
      scenario: scenario.name,
      startedAtMs: deps.realNow(),
      steps: scenario.steps.map((step) => ({ index: step.index, name: step.name, kind: step.kind })),
    });
    // The dashboard starts runs in-process and follows them live from their first step.
    (c.env as Partial<InProcessBindings> | undefined)?.onScenarioRunStarted?.(runId);
    let result: Awaited<ReturnType<typeof runScenario>> | undefined;
    try {
      result = await runScenario(scenario, params, {
        send,
        random,
        fixture: readFixture,
        monotonicMs: () => performance.now(),
        sleep,
        runId,
        onStep: (step) => log.step(record, step),
      });
    } finally {
      log.finish(record, result?.status ?? 'failed');
    }
    return c.json(result, 200);
  });

  return app;
}

function scenarioView(scenario: Scenario) {
  return {
    name: scenario.name,
    description: scenario.description,
    params: scenario.params.map((p) => ({
      name: p.name,
      type: p.type,
      description: p.description ?? null,
      default: p.default ?? null,
      required: p.required,
      example: p.example ?? null,
    })),
    steps: scenario.steps.length,
  };
}

function readFixture(name: string): { bytes: Uint8Array<ArrayBuffer>; contentType: string } {
  // Names are checked when the file loads (letters, digits, . - _, no leading dot): no path escapes.
  return {
    bytes: new Uint8Array(readFileSync(join(FIXTURES_DIR, name))),
    contentType: CONTENT_TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream',
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
