import { z } from 'zod';

/**
 * `snapshot:` and `restore:` steps: named snapshots of the partner's world, written as steps of
 * their own. Like `chaos:`, they are sugar for the request a partner would send:
 *
 *   - snapshot: kyc-approved                      → POST /v3/sandbox/snapshots {"name": "kyc-approved"}, expecting 201
 *   - snapshot: { name: kyc-approved, replace: true }  (overwrites one of that name)
 *   - restore: kyc-approved                       → POST /v3/sandbox/snapshots/kyc-approved/restore, expecting 200
 */
const NAME = /^[a-z0-9][a-z0-9_.-]{0,62}$/;
const Name = z
  .string()
  .min(1)
  .refine((name) => name.includes('${') || NAME.test(name), {
    message: 'a snapshot name is lowercase letters, digits, "_", "." and "-" (at most 63)',
  });
const SnapshotStep = z.union([Name, z.strictObject({ name: Name, replace: z.boolean().optional() })]);

const EXCLUSIVE = ['request', 'advance', 'wait_until', 'include', 'chaos'];

/**
 * Rewrites a raw step with a `snapshot` or `restore` key into the equivalent request step; any
 * other step is returned as it is. Answers a problem message when the step is malformed.
 */
export function desugarSnapshotStep(raw: object): { step: object } | { problem: string } {
  const hasSnapshot = 'snapshot' in raw;
  const hasRestore = 'restore' in raw;
  if (!hasSnapshot && !hasRestore) return { step: raw };
  if (hasSnapshot && hasRestore) return { problem: 'snapshot and restore are separate steps' };
  const key = hasSnapshot ? 'snapshot' : 'restore';
  const { [key]: value, ...rest } = raw as Record<string, unknown>;
  for (const other of EXCLUSIVE) {
    if (other in rest) return { problem: `${key} cannot be combined with ${other}; use separate steps` };
  }
  const parsed = (hasSnapshot ? SnapshotStep : Name).safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const hint = hasSnapshot
      ? 'snapshot takes a name, or {name, replace}'
      : 'restore takes the name of a snapshot';
    return { problem: `${key}: ${issue?.message ?? 'invalid'} (${hint})` };
  }
  if (!hasSnapshot) {
    const name = parsed.data as string;
    return {
      step: {
        name: rest.name ?? `restore snapshot ${name}`,
        request: { method: 'POST', path: `/v3/sandbox/snapshots/${name}/restore` },
        expect_status: 200,
        ...rest,
      },
    };
  }
  const body = typeof parsed.data === 'string' ? { name: parsed.data } : parsed.data;
  return {
    step: {
      name: rest.name ?? `save snapshot ${body.name}`,
      request: { method: 'POST', path: '/v3/sandbox/snapshots', body },
      expect_status: 201,
      ...rest,
    },
  };
}
