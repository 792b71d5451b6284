import { z } from 'zod';

/**
 * `chaos:` steps: webhook chaos for an endpoint, written as a step of its own. They are sugar for
 * the request a partner would send, so the runner needs nothing new:
 *
 *   - chaos: { endpoint: "${endpoint.id}", duplicate_rate: 0.5, drop_rate: 0.2, max_delay: 30s, reorder: true }
 *     → PUT /v3/sandbox/webhooks/endpoints/${endpoint.id}/chaos with the other fields as the body
 *   - chaos: { endpoint: "${endpoint.id}", off: true }
 *     → DELETE the same path
 */
const ChaosStep = z.strictObject({
  endpoint: z.string().min(1),
  duplicate_rate: z.union([z.number(), z.string()]).optional(),
  drop_rate: z.union([z.number(), z.string()]).optional(),
  max_delay: z.string().optional(),
  reorder: z.union([z.boolean(), z.string()]).optional(),
  off: z.literal(true).optional(),
});

/**
 * Rewrites a raw step with a `chaos` key into the equivalent request step; any other step is
 * returned as it is. Answers a problem message when the chaos mapping is malformed.
 */
export function desugarChaosStep(raw: object): { step: object } | { problem: string } {
  if (!('chaos' in raw)) return { step: raw };
  const { chaos, ...rest } = raw as { chaos: unknown } & Record<string, unknown>;
  for (const key of ['request', 'advance', 'wait_until', 'include']) {
    if (key in rest) return { problem: `chaos cannot be combined with ${key}; use separate steps` };
  }
  const parsed = ChaosStep.safeParse(chaos);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue?.path.length ? `chaos.${issue.path.join('.')}` : 'chaos';
    return {
      problem: `${at}: ${issue?.message ?? 'invalid'} (chaos takes endpoint plus duplicate_rate, drop_rate, max_delay, reorder, or off: true)`,
    };
  }
  const { endpoint, off, ...settings } = parsed.data;
  if (off && Object.keys(settings).length > 0) {
    return { problem: 'chaos.off turns chaos off; it takes no other settings' };
  }
  const path = `/v3/sandbox/webhooks/endpoints/${endpoint}/chaos`;
  return {
    step: {
      name: rest.name ?? (off ? `chaos off for ${endpoint}` : `chaos for ${endpoint}`),
      request: off ? { method: 'DELETE', path } : { method: 'PUT', path, body: settings },
      expect_status: 200,
      ...rest,
    },
  };
}
