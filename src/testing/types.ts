/**
 * The public types of `credit-sandbox/testing`. This file imports nothing, so the published
 * declarations stand alone.
 */

/** A scalar param of a scenario run. */
export type ScenarioParam = string | number | boolean;

/** The answer of `POST /v3/sandbox/scenarios/{name}/runs` (see docs/scenarios.md). */
export interface ScenarioRun {
  scenario: string;
  status: 'passed' | 'failed';
  params: Record<string, unknown>;
  steps: { index: number; name: string; kind: string; status: string; detail: string }[];
  failed_step?: { index: number; name: string; detail: string };
  /** What the run captured (`customer`, `offer`, `loan`…), objects as the API answered them. */
  captured: Record<string, unknown>;
}

/** The partner clock. */
export interface ClockReading {
  now: string;
  frozen: boolean;
}

/** An API-side fault rule (docs: "API-side faults"); the shape is the API's. */
export interface FaultRule {
  match: { method?: string; path: string };
  action: Record<string, unknown>;
  times?: number;
  probability?: number;
  expires_in?: string;
}

/** Fault rules of the partner, over `/v3/sandbox/faults`. */
export interface Faults {
  /** Adds a rule; answers it with its `id`. */
  add(rule: FaultRule): Promise<FaultRule & { id: string }>;
  list(): Promise<(FaultRule & { id: string })[]>;
  remove(id: string): Promise<void>;
  /** Removes every rule. */
  clear(): Promise<void>;
}

/** The helpers every way of running the sandbox gives a test (in process or in a container). */
export interface SandboxClient {
  /** The API base, `/v3` included (what a partner's client is configured with). */
  readonly baseUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** A fresh access token (tokens live one hour of the partner clock, so each call asks anew). */
  token(): Promise<string>;
  /** Moves the partner clock forward: `'35d'`, `'2h'`, `'90s'`. Due jobs and webhooks run. */
  advance(by: string): Promise<ClockReading>;
  /** Runs a scenario; throws ScenarioFailedError (with the run) when a step fails. */
  runScenario(name: string, params?: Record<string, ScenarioParam>): Promise<ScenarioRun>;
  /** Saves the partner's whole world under a name (`POST /v3/sandbox/snapshots`). */
  snapshot(name: string): Promise<unknown>;
  /** Puts a saved world back (`POST /v3/sandbox/snapshots/{name}/restore`). */
  restore(name: string): Promise<unknown>;
  /** Wipes the partner's data and restarts its clock (`POST /v3/sandbox/reset`). */
  reset(): Promise<void>;
  faults: Faults;
  /** Any API call with a fresh token; JSON in and out. Throws SandboxApiError on 4xx/5xx. */
  api<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
}

/** Options of `startSandbox`. Everything is optional; the defaults make a quiet, frozen, fresh sandbox. */
export interface StartSandboxOptions {
  /** Makes every generated value (ids, secrets, tokens) reproducible (`--seed`). */
  seed?: string;
  /** Where the partner clock starts (`--start-time`); default: now. */
  startTime?: string | Date;
  /** `frozen` (default: time moves only with `advance`) or `running`. */
  clock?: 'frozen' | 'running';
  /** Directories of your own scenario files (`--scenarios`). */
  scenarios?: string | string[];
  /** A snapshot file (an export) loaded into the default partner at start (`--snapshot`). */
  snapshot?: string;
  /** Interface to listen on (default 127.0.0.1); the port is always a free one. */
  host?: string;
  /** Hosts allowed as plain-http webhook targets besides loopback (`--webhook-http-hosts`). */
  webhookHttpHosts?: string[];
  /** The default partner's credential (default: the documented sandbox credential). */
  clientId?: string;
  clientSecret?: string;
  /** Requests per second per partner; 0 (default here) turns the rate limit off. */
  rateLimit?: number;
}

/** A sandbox running inside the test process. */
export interface Sandbox extends SandboxClient {
  /** The server root (`http://127.0.0.1:PORT`): the dashboard, `/docs`, `/healthz`. */
  readonly url: string;
  /** Stops the server (in-flight requests get a second); safe to call twice. */
  stop(): Promise<void>;
}
