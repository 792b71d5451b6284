/** @jsxImportSource hono/jsx */
import type { Hono } from 'hono';
import { Csrf } from '../components.js';
import { afterAction, type DashboardContext, type DashboardEnv, field, redirectWith } from '../context.js';

/** The actions the form offers, each as the `action` object the API takes. */
const ACTIONS: Record<string, { label: string; action: (duration: string) => Record<string, unknown> }> = {
  'status-503': { label: '503 service unavailable (not run)', action: () => ({ status: 503 }) },
  'status-500': { label: '500 internal error (not run)', action: () => ({ status: 500 }) },
  'status-502': { label: '502 bad gateway (not run)', action: () => ({ status: 502 }) },
  'status-504': { label: '504 gateway timeout (not run)', action: () => ({ status: 504 }) },
  'status-429': { label: '429 rate limited, Retry-After 1 (not run)', action: () => ({ status: 429 }) },
  'lost-502': {
    label: '502 after it ran: the answer is lost',
    action: () => ({ status: 502, after_processing: true }),
  },
  'lost-504': {
    label: '504 after it ran: the answer is lost',
    action: () => ({ status: 504, after_processing: true }),
  },
  delay: { label: 'delay by the duration', action: (duration) => ({ delay: duration }) },
  reset: { label: 'reset the connection (not run)', action: () => ({ reset: true }) },
  timeout: { label: 'no answer for the duration (not run)', action: (duration) => ({ timeout: duration }) },
  truncate: { label: 'truncate the body (it ran)', action: () => ({ truncate: true }) },
};

interface Operation {
  method: string;
  path: string;
}

const documented = new WeakMap<object, Operation[]>();

/**
 * The operations a rule may name, from the served OpenAPI document (what a client of the API
 * knows), without the sandbox's own controls, which are never faulted. Read once per app.
 */
export async function faultableOperations(c: DashboardContext, key: object): Promise<Operation[]> {
  const known = documented.get(key);
  if (known) return known;
  const result = await c
    .get('api')
    .get<{ paths: Record<string, Record<string, unknown>> }>('/v3/openapi.json');
  if (!result.ok) return [];
  const methods = ['get', 'post', 'put', 'patch', 'delete'];
  const operations = Object.entries(result.body.paths)
    .filter(([path]) => !path.startsWith('/sandbox/'))
    .flatMap(([path, item]) =>
      methods.filter((m) => m in item).map((method) => ({ method: method.toUpperCase(), path })),
    );
  documented.set(key, operations);
  return operations;
}

/** "Add a rule": an operation, an action, and how long it lasts (times, probability, expiry). */
export const FaultForm = ({ csrf, operations }: { csrf: string; operations: Operation[] }) => (
  <section class="card" aria-label="Add a fault rule">
    <h2 style="margin-top:0">Add a rule</h2>
    <form class="inline" method="post" action="/dashboard/faults" id="add-fault">
      <Csrf token={csrf} />
      <label>
        Operation
        <select name="operation" required>
          {operations.map((op) => (
            <option value={`${op.method} ${op.path}`} selected={op.method === 'POST' && op.path === '/loans'}>
              {op.method} {op.path}
            </option>
          ))}
        </select>
      </label>
      <label>
        Action
        <select name="action" required>
          {Object.entries(ACTIONS).map(([value, { label }]) => (
            <option value={value}>{label}</option>
          ))}
        </select>
      </label>
      <label>
        Duration
        <input name="duration" placeholder="2s" size={6} pattern="\d{1,7}(ms|s|m|h)" />
      </label>
      <label>
        Times
        <input name="times" type="number" min="1" max="1000" size={4} placeholder="1" />
      </label>
      <label>
        Probability
        <input name="probability" type="number" min="0.01" max="1" step="0.01" size={4} placeholder="0.25" />
      </label>
      <label>
        Expires in
        <input name="expires_in" placeholder="10m" size={6} pattern="\d{1,7}(ms|s|m|h|d)" />
      </label>
      <button type="submit" class="primary">
        Add rule
      </button>
    </form>
    <p class="muted">
      Duration goes with <em>delay</em> and <em>no answer</em> (<code>250ms</code>, <code>2s</code>). Give
      times (the next n calls) or a probability (each call by chance), not both; neither: every matching call.
    </p>
  </section>
);

/** POST /dashboard/faults: the form's fields as `POST /v3/sandbox/faults`. */
export function addFaultRoute(app: Hono<DashboardEnv>) {
  app.post('/dashboard/faults', async (c) => {
    const form = await c.req.parseBody();
    const [method, path] = field(form, 'operation').split(' ');
    const kind = ACTIONS[field(form, 'action')];
    if (!method || !path || !kind) {
      return redirectWith(c, '/dashboard/faults', {
        kind: 'error',
        text: 'Choose an operation and an action.',
      });
    }
    const number = (name: string) => (field(form, name) === '' ? undefined : Number(field(form, name)));
    const expiresIn = field(form, 'expires_in');
    const body = {
      match: { method, path },
      action: kind.action(field(form, 'duration')),
      ...(number('times') === undefined ? {} : { times: number('times') }),
      ...(number('probability') === undefined ? {} : { probability: number('probability') }),
      ...(expiresIn ? { expires_in: expiresIn } : {}),
    };
    const result = await c.get('api').post<{ id: string }>('/v3/sandbox/faults', body);
    return afterAction(
      c,
      result,
      '/dashboard/faults',
      result.ok ? `Fault rule ${result.body.id} added: ${method} ${path}.` : '',
    );
  });
}
