import type { z } from 'zod';
import { ApiError, type FieldError } from '../../domain/errors.js';

type Schema = z.ZodType;

/** A schema's parse, or the 400 problem that lists what failed. */
export function parsed(schema: Schema, value: unknown, target: string): unknown {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  // zod builds its error (an Error, with a stack nobody reads) on this first read.
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  let error: z.ZodError;
  try {
    error = result.error;
  } finally {
    Error.stackTraceLimit = limit;
  }
  const errors = fieldErrors(error, target);
  throw new ApiError('validation_failed', summarize(errors), { param: errors[0]?.param, errors });
}

function fieldErrors(error: z.ZodError, target: string): FieldError[] {
  return error.issues.map((issue) => {
    const param =
      issue.path.length > 0 ? issue.path.map(String).join('.') : target === 'json' ? 'body' : target;
    const missing = issue.code === 'invalid_type' && /received undefined/.test(issue.message);
    return {
      param,
      detail: missing ? `${param} is required` : `${param}: ${issue.message}`,
      code: missing ? 'required' : issue.code,
    };
  });
}

function summarize(errors: FieldError[]): string {
  if (errors.length === 1) return `Invalid request: ${errors[0]?.detail}.`;
  return `Invalid request: ${errors.length} problems (${errors.map((e) => e.param).join(', ')}). See errors[].`;
}
