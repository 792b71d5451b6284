import { createRoute } from '@hono/zod-openapi';
import { issueAccessToken } from '../domain/access-tokens.js';
import { ApiError, ERROR_CATALOG, type ErrorCode } from '../domain/errors.js';
import { scenarioCatalog } from '../engine/scenarios/catalog.js';
import { ScenarioFileError } from '../engine/scenarios/load.js';
import {
  flattenCaptures,
  providerStateIndex,
  unknownStateMessage,
} from '../engine/scenarios/provider-states.js';
import type { RunResult } from '../engine/scenarios/runner.js';
import type { AppDeps } from '../http/deps.js';
import { createRouter } from '../http/router.js';
import { selfFetch } from '../http/self-fetch.js';
import { type PartnerCall, providerStateCheckpoint } from './provider-state-checkpoint.js';
import { COMMON_ERRORS, json, problemResponses } from './schemas/common.js';
import { ProviderStateBody, ProviderStateValues } from './schemas/provider-states.js';

// A bearer token or HTTP Basic client credentials (typed apart: an inline literal of two shapes
// defeats the route's type inference).
const EITHER_AUTH: Record<string, string[]>[] = [{ bearerAuth: [] }, { basicAuth: [] }];

const setupProviderState = createRoute({
  method: 'post',
  path: '/sandbox/provider-states',
  operationId: 'setupProviderState',
  tags: ['Sandbox control'],
  summary: 'Pact provider state change: set a state up (run its scenario) or tear it down',
  description: [
    'The provider state change URL for a Pact verifier (`stateHandlers` forwarding here in Pact JS, the state change URL elsewhere). It takes the verifier\'s body as sent: `{"state", "params", "action": "setup" | "teardown", "consumer"}`, or a `states` array.',
    '',
    "**setup** runs the scenario whose file declares the state (`provider_states: [...]`) with the state's `params` as scenario params, and answers what it captured as one flat object (`customer_id`, `loan_id`…) that Pact injects with `fromProviderState`. Before the first setup the partner's whole world is saved as the snapshot `pact-provider-state` (kept if it exists). **teardown** restores that snapshot and deletes it: what the states made goes, the partner's own data and clock come back.",
    '',
    'Besides a bearer token this route accepts HTTP Basic `client_id:client_secret` (put them in the URL: `http://id:secret@host/v3/sandbox/provider-states`): scenarios move the partner clock, which expires tokens, and a credential never expires. See docs/pact.md.',
  ].join('\n'),
  security: EITHER_AUTH,
  request: { body: { required: true, content: { 'application/json': { schema: ProviderStateBody } } } },
  responses: {
    200: json(ProviderStateValues, 'Setup: the values for `fromProviderState`. Teardown: `{}`.'),
    ...problemResponses(400, 422, ...COMMON_ERRORS),
  },
});

interface StateRequest {
  name: string;
  params: Record<string, unknown>;
}

export function sandboxProviderStateRoutes(deps: AppDeps) {
  const app = createRouter();

  app.openapi(setupProviderState, async (c) => {
    const body = c.req.valid('json');
    const partnerId = c.get('partner').id;
    const clientId = c.get('clientId');
    const callerToken = /^Bearer\s+(\S+)/i.exec(c.req.header('authorization') ?? '')?.[1];
    // A token per call, on the partner clock as it is then: a scenario moves the clock past the
    // life of any token taken before it.
    const token = () => {
      const credential = deps.store.credentials.get(clientId);
      if (credential?.status !== 'active' || credential.partner_id !== partnerId) return callerToken ?? '';
      const key = Buffer.from(deps.store.meta.signing_key, 'base64url');
      const jti = deps.engine.stream(partnerId).ids('jti_');
      return issueAccessToken(credential, deps.engine.clock(partnerId), key, jti).access_token;
    };
    const call: PartnerCall = (method, path, payload) =>
      selfFetch(deps)(
        new Request(new URL(path, 'http://sandbox.internal'), {
          method,
          headers: { authorization: `Bearer ${token()}`, 'content-type': 'application/json' },
          body: payload === undefined ? undefined : JSON.stringify(payload),
        }),
      );
    const checkpoint = providerStateCheckpoint(call);
    if (body.state === undefined && body.states === undefined) {
      throw new ApiError(
        'validation_failed',
        'Name the provider state: "state": "…" (or a "states" array).',
        {
          param: 'state',
        },
      );
    }
    const states: StateRequest[] = body.states
      ? body.states.map((entry) =>
          typeof entry === 'string'
            ? { name: entry, params: body.params ?? {} }
            : { name: entry.name, params: entry.params ?? body.params ?? {} },
        )
      : [{ name: body.state ?? '', params: body.params ?? {} }];

    if (body.action === 'teardown') {
      await checkpoint.restore();
      return c.json({}, 200);
    }

    const index = providerStateIndex(catalog(deps));
    for (const state of states) {
      if (!index.has(state.name)) {
        throw new ApiError('unknown_provider_state', unknownStateMessage(state.name, index), {
          param: 'state',
        });
      }
    }
    await checkpoint.save();
    const values: Record<string, string | number | boolean | null> = {};
    for (const state of states) {
      const scenario = index.get(state.name)?.name as string;
      const res = await call('POST', `/v3/sandbox/scenarios/${scenario}/runs`, { params: state.params });
      if (res.status !== 200) throw await forwardedProblem(res, state.name);
      const run = (await res.json()) as RunResult;
      if (run.status !== 'passed') {
        const step = run.failed_step;
        throw new ApiError(
          'provider_state_failed',
          `Provider state "${state.name}": scenario "${scenario}" failed at step ${step?.index} ("${step?.name}"): ${step?.detail}`,
          { param: 'state' },
        );
      }
      Object.assign(values, flattenCaptures(run.captured));
    }
    return c.json(values, 200);
  });

  return app;
}

function catalog(deps: AppDeps) {
  try {
    return scenarioCatalog(deps.config.scenarioDirs ?? []);
  } catch (error) {
    if (error instanceof ScenarioFileError) throw new ApiError('scenario_files_invalid', error.message);
    throw error;
  }
}

// A scenario run refused before it started (bad params, rate limit…): the same problem, named.
async function forwardedProblem(res: Response, state: string): Promise<ApiError> {
  const problem = (await res.json().catch(() => ({}))) as {
    code?: string;
    detail?: string;
    errors?: { param: string; detail: string }[];
  };
  const code = (problem.code && problem.code in ERROR_CATALOG ? problem.code : 'internal_error') as ErrorCode;
  return new ApiError(
    code,
    `Provider state "${state}": ${problem.detail ?? `scenario run answered ${res.status}`}`,
    {
      param: 'params',
      ...(problem.errors ? { errors: problem.errors } : {}),
    },
  );
}
