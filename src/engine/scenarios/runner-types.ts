// The shapes a scenario run works with: requests and responses, the runner's deps, step and run results.
import type { Scope } from './scope.js';
import type { Step } from './types.js';

/** A request as the runner hands it to the transport (placeholders filled in). */
export interface OutgoingRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** A JSON body, or multipart form data. */
  body?: unknown;
  form?: FormData;
}

export interface IncomingResponse {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON when the response is JSON, the text otherwise (undefined when empty). */
  body: unknown;
}

/** What the runner needs from outside: a transport to the API and sources of fresh values and time. */
export interface RunnerDeps {
  /** Sends a request exactly as the partner would (through the whole app, with the partner's token). */
  send(request: OutgoingRequest): Promise<IncomingResponse>;
  /** `${random.<name>}` */
  random(name: string): unknown;
  /** The bytes of a fixtures/ file named by an `@name` form value. */
  fixture(name: string): { bytes: Uint8Array<ArrayBuffer>; contentType: string };
  /** Real time, for polling bounds only (the partner clock moves through the API). */
  monotonicMs(): number;
  sleep(ms: number): Promise<void>;
  runId: string;
  /** Told of each top-level step as it completes (the dashboard shows runs live). */
  onStep?: (result: StepResult) => void;
}

export type StepStatus = 'passed' | 'failed' | 'skipped';

export interface StepResult {
  index: number;
  name: string;
  kind: Step['kind'];
  status: StepStatus;
  detail: string;
  response?: { status: number; body: unknown };
}

export interface RunResult {
  scenario: string;
  status: 'passed' | 'failed';
  params: Record<string, unknown>;
  steps: StepResult[];
  failed_step?: { index: number; name: string; detail: string };
  /** What the run captured (customer, offer, loan…), so a CI job can use what it seeded. */
  captured: Record<string, unknown>;
}

/** What a step reports back while it runs (its detail, last response and scope). */
export interface Outcome {
  detail: string;
  response?: IncomingResponse;
  /** The scope the step last looked at (with `response` and its captures). */
  scope?: Scope;
}
