/** Sends a request through the whole app (middleware, routing, validation), as if it came from outside. */
export type SelfFetch = (request: Request) => Promise<Response>;

const apps = new WeakMap<object, SelfFetch>();

/** Called by createApp: remembers the app built over these deps. */
export function registerSelfFetch(deps: object, fetch: SelfFetch): void {
  apps.set(deps, fetch);
}

/**
 * The app built over these deps. The scenario runner sends its steps through it so they take the
 * partner's exact path: auth, rate limit, idempotency, validation, state machines, events.
 */
export function selfFetch(deps: object): SelfFetch {
  const fetch = apps.get(deps);
  if (!fetch) throw new Error('no app registered for these deps (createApp was not called)');
  return fetch;
}

/**
 * The `env` of requests the sandbox makes to itself from the dashboard: never present on requests
 * from the network, so no client can forge it.
 */
export interface InProcessBindings {
  /** The request was made by the dashboard (the request inspector can tell them apart). */
  dashboard: true;
  /** Told the run id as soon as a scenario run starts (the dashboard redirects to its live page). */
  onScenarioRunStarted?: (runId: string) => void;
}

/** The `env` of the sandbox's own requests through `selfFetch` (scenario steps). */
export const SELF_FETCH_ENV = { inProcess: true } as const;

/** Whether a request was made by the sandbox itself (dashboard or scenario runner), not a client. */
export function isInProcess(env: unknown): boolean {
  const bindings = env as { dashboard?: unknown; inProcess?: unknown } | undefined;
  return bindings?.dashboard === true || bindings?.inProcess === true;
}
