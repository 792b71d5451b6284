import { z } from 'zod';

/**
 * `fault:` steps: an API-side fault rule, written as a step of its own. Like `chaos:` they are
 * sugar for the request a partner would send, so the runner needs nothing new:
 *
 *   - fault: { match: { method: POST, path: /loans }, action: { status: 503 }, times: 1 }
 *     → POST /v3/sandbox/faults with that body (201)
 *   - fault: { clear: true }
 *     → DELETE /v3/sandbox/faults
 *
 * The rule acts on the partner's own calls after the run; the runner's own steps are never faulted.
 * The server checks the rule (paths, actions, bounds) when the step runs.
 */
const Scalar = z.union([z.string(), z.number(), z.boolean()]);
const FaultStep = z.strictObject({
  match: z.strictObject({ method: z.string().optional(), path: z.string().min(1) }).optional(),
  action: z.record(z.string(), z.union([Scalar, z.record(z.string(), Scalar)])).optional(),
  times: z.union([z.number(), z.string()]).optional(),
  probability: z.union([z.number(), z.string()]).optional(),
  expires_in: z.string().optional(),
  clear: z.literal(true).optional(),
});

/**
 * Rewrites a raw step with a `fault` key into the equivalent request step; any other step is
 * returned as it is. Answers a problem message when the fault mapping is malformed.
 */
export function desugarFaultStep(raw: object): { step: object } | { problem: string } {
  if (!('fault' in raw)) return { step: raw };
  const { fault, ...rest } = raw as { fault: unknown } & Record<string, unknown>;
  for (const key of ['request', 'advance', 'wait_until', 'include', 'chaos']) {
    if (key in rest) return { problem: `fault cannot be combined with ${key}; use separate steps` };
  }
  const parsed = FaultStep.safeParse(fault);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue?.path.length ? `fault.${issue.path.join('.')}` : 'fault';
    return {
      problem: `${at}: ${issue?.message ?? 'invalid'} (fault takes match and action, plus times, probability or expires_in; or clear: true)`,
    };
  }
  const { clear, ...rule } = parsed.data;
  if (clear) {
    if (Object.keys(rule).length > 0)
      return { problem: 'fault.clear deletes every rule; it takes nothing else' };
    return {
      step: {
        name: rest.name ?? 'clear fault rules',
        request: { method: 'DELETE', path: '/v3/sandbox/faults' },
        expect_status: 200,
        ...rest,
      },
    };
  }
  if (!rule.match || !rule.action) return { problem: 'fault needs match and action (or clear: true)' };
  const method = rule.match.method ? `${rule.match.method.toUpperCase()} ` : '';
  return {
    step: {
      name: rest.name ?? `fault ${method}${rule.match.path}: ${JSON.stringify(rule.action)}`,
      request: { method: 'POST', path: '/v3/sandbox/faults', body: rule },
      expect_status: 201,
      ...rest,
    },
  };
}
