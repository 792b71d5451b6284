// The requests a run sends: placeholders filled in, form files attached, status checked and failures described.
import { show } from './expressions.js';
import { ScenarioError } from './paths.js';
import type { IncomingResponse, OutgoingRequest, RunnerDeps } from './runner-types.js';
import { interpolate, interpolateText, type Scope } from './scope.js';
import { RUNS_HINT, RUNS_PATH } from './step-kind-checks.js';
import type { RequestSpec } from './types.js';

export async function send(
  spec: RequestSpec,
  scope: Scope,
  deps: RunnerDeps,
): Promise<{ line: string; response: IncomingResponse }> {
  const path = interpolateText(spec.path, scope);
  if (!path.startsWith('/') || path.startsWith('//'))
    throw new ScenarioError(`request.path "${path}" must start with "/"`);
  if (RUNS_PATH.test(path)) throw new ScenarioError(`request.path: ${RUNS_HINT}`);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(spec.headers ?? {})) {
    headers[name.toLowerCase()] = interpolateText(String(value), scope);
  }
  const request: OutgoingRequest = { method: spec.method, path, headers };
  if (spec.body !== undefined) {
    request.body = interpolate(spec.body, scope);
    headers['content-type'] ??= 'application/json';
  }
  if (spec.form) {
    const form = new FormData();
    for (const [field, template] of Object.entries(spec.form)) {
      const value = typeof template === 'string' ? interpolateText(template, scope) : String(template);
      if (value.startsWith('@')) {
        if (!/^[\w-][\w.-]*$/.test(value.slice(1))) {
          throw new ScenarioError(
            `request.form.${field}: "${value}" must name a file of fixtures/, e.g. @sample.pdf`,
          );
        }
        const file = deps.fixture(value.slice(1));
        form.set(field, new File([file.bytes], value.slice(1), { type: file.contentType }));
      } else {
        form.set(field, value);
      }
    }
    request.form = form;
  }
  const response = await deps.send(request);
  return { line: `${spec.method} ${path}`, response };
}

export function jsonRequest(method: string, path: string, body: unknown): OutgoingRequest {
  return { method, path, headers: { 'content-type': 'application/json' }, body };
}

export function checkStatus(expected: number[], response: IncomingResponse): string | undefined {
  const ok =
    expected.length === 0
      ? response.status >= 200 && response.status < 300
      : expected.includes(response.status);
  if (ok) return undefined;
  const wanted = expected.length === 0 ? 'a 2xx status' : `status ${expected.join(' or ')}`;
  return `expected ${wanted}, got ${describeFailure(response)}`;
}

/** `422 credit_offer_expired: Credit offer co_… expired at …` — the problem's own words. */
export function describeFailure(response: IncomingResponse): string {
  const body = response.body as { code?: unknown; detail?: unknown } | undefined;
  if (body && typeof body === 'object' && typeof body.detail === 'string') {
    return `${response.status}${typeof body.code === 'string' ? ` ${body.code}` : ''}: ${body.detail}`;
  }
  return `${response.status}${body === undefined ? '' : ` ${show(body)}`}`;
}
