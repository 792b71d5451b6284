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
  /** Puts the remembered world back and forgets it (a no-op when nothing is remembered). */
  restore(): Promise<string>;
}

/**
 * Until named snapshots exist, teardown is a reset: the partner's data is wiped and its clock
 * restarted. Switching to snapshots replaces this one function.
 */
export function providerStateCheckpoint(call: PartnerCall): ProviderStateCheckpoint {
  return resetCheckpoint(call);
}

function resetCheckpoint(call: PartnerCall): ProviderStateCheckpoint {
  return {
    save: async () => {},
    restore: async () => {
      await expectOk(await call('POST', '/v3/sandbox/reset'), 'reset');
      return 'reset';
    },
  };
}

export async function expectOk(res: Response, what: string): Promise<Response> {
  if (res.ok) return res;
  throw new Error(`provider state ${what}: ${res.status} ${await res.text()}`);
}
