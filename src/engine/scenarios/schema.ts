import { z } from 'zod';

/**
 * The shape of a scenario file as written (YAML), before the checks that need context (expressions,
 * durations, names in scope). See docs/scenarios.md for the format with examples.
 */

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export const PARAM_TYPES = ['string', 'integer', 'number', 'boolean'] as const;
/** Names a capture may not take: they are always in scope. */
export const RESERVED_NAMES = ['params', 'random', 'run', 'response'] as const;

const Scalar = z.union([z.string(), z.number(), z.boolean()]);
const Identifier = z
  .string()
  .regex(/^[A-Za-z_]\w*$/, 'must be a name of letters, digits and _ (not starting with a digit)');

const ParamObject = z.strictObject({
  description: z.string().optional(),
  type: z.enum(PARAM_TYPES).optional(),
  default: Scalar.optional(),
  required: z.boolean().optional(),
  example: Scalar.optional(),
});

/** A param: a scalar (its default) or `{description, type, default, required, example}`. */
export const ParamFile = z.union([Scalar, ParamObject]);

export const RequestFile = z.strictObject({
  method: z.preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), z.enum(HTTP_METHODS)),
  path: z.string().regex(/^\/(?!\/)/, 'must start with "/", e.g. /v3/customers'),
  body: z.unknown().optional(),
  /** multipart/form-data fields; a value "@sample.pdf" attaches that file from fixtures/. */
  form: z.record(z.string(), Scalar).optional(),
  headers: z.record(z.string(), Scalar).optional(),
});

const Conditions = z.union([z.string(), z.array(z.string()).min(1)]);
const Status = z.number().int().min(100).max(599);

export const AdvanceFile = z.union([
  z.string(),
  z.strictObject({ by: z.string().optional(), to: z.string().optional(), plus: z.string().optional() }),
]);

export const StepFile = z.strictObject({
  name: z.string().min(1).optional(),
  request: RequestFile.optional(),
  expect_status: z.union([Status, z.array(Status).min(1)]).optional(),
  capture: z.record(Identifier, z.string()).optional(),
  expect: Conditions.optional(),
  advance: AdvanceFile.optional(),
  wait_until: Conditions.optional(),
  include: z.string().min(1).optional(),
  params: z.record(z.string(), Scalar).optional(),
  every: z.string().optional(),
  within: z.string().optional(),
  timeout: z.string().optional(),
  interval: z.string().optional(),
  max_tries: z.number().int().min(1).max(10_000).optional(),
  /** Runs even after an earlier step failed: clean-up (delete what the run registered). */
  always: z.boolean().optional(),
  /** Paths whose values are added to the step's failure detail (e.g. the last attempt's error). */
  explain: Conditions.optional(),
});

export const ScenarioFile = z.strictObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'must be kebab-case, e.g. overdue-installment'),
  description: z.string().min(1),
  params: z.record(Identifier, ParamFile).optional(),
  /** Pact provider states this scenario sets up (POST /v3/sandbox/provider-states). */
  provider_states: z.array(z.string().trim().min(1).max(200)).max(50).optional(),
  steps: z.array(z.unknown()).min(1, 'a scenario needs at least one step'),
});

export type StepFileShape = z.infer<typeof StepFile>;
export type RequestFileShape = z.infer<typeof RequestFile>;
