import { ApiError } from '../domain/errors.js';

/**
 * Where a Pact provider-state teardown returns the partner to. Setup calls `save` before running
 * the first state's scenario; teardown calls `restore`. Both go through the partner's own control
 * API (the same requests a test would send), so they work in every storage mode and instance.
 */

/** Sends one control request as the calling partner, answering the raw response. */
export type PartnerCall = (
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
) => Promise<Response>;

export interface ProviderStateCheckpoint {
  /** Remembers the partner's world before a setup (a no-op when one is already remembered). */
  save(): Promise<void>;
  /** Puts the remembered world back and forgets it; answers false when nothing was remembered. */
  restore(): Promise<boolean>;
}

/** The snapshot a setup saves and its teardown restores (one per partner, in the snapshot list). */
export const PROVIDER_STATE_SNAPSHOT = 'pact-provider-state';

/**
 * Teardown is a named snapshot: the first setup saves the partner's whole world (clock included)
 * unless that snapshot already exists (the second state of one interaction, or a verifier that
 * never tears down); teardown restores it and deletes it, so the next interaction starts afresh.
 */
export function providerStateCheckpoint(call: PartnerCall): ProviderStateCheckpoint {
  const path = `/v3/sandbox/snapshots/${PROVIDER_STATE_SNAPSHOT}`;
  return {
    save: async () => {
      const existing = await call('GET', path);
      if (existing.status === 200) return;
      await expectOk(
        await call('POST', '/v3/sandbox/snapshots', { name: PROVIDER_STATE_SNAPSHOT }),
        'save the snapshot that teardown restores',
      );
    },
    restore: async () => {
      const restored = await call('POST', `${path}/restore`);
      if (restored.status === 404) return false;
      await expectOk(restored, 'restore the snapshot taken at setup');
      await expectOk(await call('DELETE', path), 'delete the snapshot taken at setup');
      return true;
    },
  };
}

async function expectOk(res: Response, what: string): Promise<void> {
  if (res.ok) return;
  const problem = (await res.json().catch(() => ({}))) as { detail?: string };
  throw new ApiError(
    'provider_state_failed',
    `Could not ${what} (${PROVIDER_STATE_SNAPSHOT}): ${res.status} ${problem.detail ?? ''}`.trim(),
  );
}
