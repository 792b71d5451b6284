import { OpenAPIHono } from '@hono/zod-openapi';
import type { z } from 'zod';
import { ApiError, type FieldError } from '../domain/errors.js';
import type { AppEnv } from './env.js';

/**
 * A router whose validation failures become 400 `validation_failed` problems listing every field
 * problem with its `param`. Every router of the API is made here so the rule holds everywhere.
 */
export function createRouter(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (result.success) return;
      const errors = fieldErrors(result.error, result.target);
      throw new ApiError('validation_failed', summarize(errors), {
        param: errors[0]?.param,
        errors,
      });
    },
  });
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
