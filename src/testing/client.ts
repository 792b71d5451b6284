import type { ClockReading, FaultRule, SandboxClient, ScenarioParam, ScenarioRun } from './types.js';

/** A 4xx/5xx answer of the sandbox, with its problem+json body. */
export class SandboxApiError extends Error {
  override name = 'SandboxApiError';
  constructor(
    readonly status: number,
    readonly problem: { code?: string; detail?: string } & Record<string, unknown>,
    what: string,
  ) {
    super(`${what}: ${status} ${problem.code ?? ''} ${problem.detail ?? ''}`.trim());
  }
}

/** A scenario run that ended `failed`; `run` holds every step. */
export class ScenarioFailedError extends Error {
  override name = 'ScenarioFailedError';
  constructor(readonly run: ScenarioRun) {
    const step = run.failed_step;
    super(`scenario "${run.scenario}" failed at step ${step?.index} ("${step?.name}"): ${step?.detail}`);
  }
}

/**
 * The test helpers over plain HTTP (global fetch): the same for a sandbox in the test process and
 * one in a container. `baseUrl` is the API base with `/v3`.
 */
export function sandboxClient(baseUrl: string, clientId: string, clientSecret: string): SandboxClient {
  const basic = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;

  const token = async (): Promise<string> => {
    const res = await fetch(`${baseUrl}/auth/token`, { method: 'POST', headers: { authorization: basic } });
    const body = (await res.json()) as { access_token?: string };
    if (!res.ok || !body.access_token) throw new SandboxApiError(res.status, body, 'POST /auth/token');
    return body.access_token;
  };

  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const headers: Record<string, string> = { authorization: `Bearer ${await token()}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const parsed = text === '' ? undefined : (JSON.parse(text) as unknown);
    if (!res.ok)
      throw new SandboxApiError(res.status, (parsed ?? {}) as Record<string, unknown>, `${method} ${path}`);
    return parsed as T;
  };

  return {
    baseUrl,
    clientId,
    clientSecret,
    token,
    api,
    advance: (by) => api<ClockReading>('POST', '/sandbox/clock/advance', { by }),
    runScenario: async (name: string, params: Record<string, ScenarioParam> = {}) => {
      const run = await api<ScenarioRun>('POST', `/sandbox/scenarios/${encodeURIComponent(name)}/runs`, {
        params,
      });
      if (run.status !== 'passed') throw new ScenarioFailedError(run);
      return run;
    },
    snapshot: (name) => api('POST', '/sandbox/snapshots', { name }),
    restore: (name) => api('POST', `/sandbox/snapshots/${encodeURIComponent(name)}/restore`),
    reset: async () => {
      await api('POST', '/sandbox/reset');
    },
    faults: {
      add: (rule: FaultRule) => api<FaultRule & { id: string }>('POST', '/sandbox/faults', rule),
      list: async () => (await api<{ data: (FaultRule & { id: string })[] }>('GET', '/sandbox/faults')).data,
      remove: async (id: string) => {
        await api('DELETE', `/sandbox/faults/${encodeURIComponent(id)}`);
      },
      clear: async () => {
        await api('DELETE', '/sandbox/faults');
      },
    },
  };
}
