import type { Expression } from './expressions.js';
import type { HTTP_METHODS, PARAM_TYPES } from './schema.js';

export type ParamType = (typeof PARAM_TYPES)[number];
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface ParamSpec {
  name: string;
  type: ParamType;
  description: string | undefined;
  /** A default may be a template (`${random.cpf}`), filled once per run. */
  default: string | number | boolean | undefined;
  required: boolean;
  example: string | number | boolean | undefined;
}

/** An HTTP request as the partner would send it; every string may hold `${…}` placeholders. */
export interface RequestSpec {
  method: HttpMethod;
  path: string;
  body?: unknown;
  form?: Record<string, string | number | boolean>;
  headers?: Record<string, string | number | boolean>;
}

interface StepBase {
  /** 1-based position in the file. */
  index: number;
  name: string;
  /** Runs even after an earlier step failed (clean-up). */
  always?: boolean;
  /** Paths shown with the failure detail when the step fails. */
  explain?: string[];
}

export interface RequestStep extends StepBase {
  kind: 'request';
  request: RequestSpec;
  /** Accepted statuses; empty means any 2xx. */
  expectStatus: number[];
  capture: Record<string, string>;
  expect: Expression[];
}

export interface AdvanceStep extends StepBase {
  kind: 'advance';
  by?: string;
  to?: string;
  plus?: string;
}

export interface WaitStep extends StepBase {
  kind: 'wait';
  until: Expression[];
  request?: RequestSpec;
  expectStatus: number[];
  capture: Record<string, string>;
  /** Clock advance between tries; absent: poll in real time. */
  every?: string;
  /** Largest total clock advance (with `every`). */
  within?: string;
  /** Real-time bound when polling without clock advances. */
  timeout?: string;
  interval?: string;
  /** Largest number of tries (each sends `request` again); bounds the wait in both modes. */
  maxTries?: number;
}

export interface ExpectStep extends StepBase {
  kind: 'expect';
  expect: Expression[];
}

/** Runs another scenario's steps; its captures become visible to the following steps. */
export interface IncludeStep extends StepBase {
  kind: 'include';
  scenario: Scenario;
  /** Param templates, filled in the including scenario's scope. */
  params: Record<string, string | number | boolean>;
}

export type Step = RequestStep | AdvanceStep | WaitStep | ExpectStep | IncludeStep;

export interface Scenario {
  name: string;
  description: string;
  /** Where it was loaded from (for messages). */
  file: string;
  params: ParamSpec[];
  steps: Step[];
  /** Pact provider states it sets up (`provider_states:`); empty when it declares none. */
  providerStates: string[];
}
