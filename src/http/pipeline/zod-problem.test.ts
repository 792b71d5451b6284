import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../domain/errors.js';
import { parsed } from './zod-problem.js';

const schema = z.object({ name: z.string(), count: z.number().int() });

describe('parsed', () => {
  it('answers the value when it fits', () => {
    expect(parsed(schema, { name: 'a', count: 1 }, 'json')).toEqual({ name: 'a', count: 1 });
  });

  it('refuses with every field problem, and leaves the stack limit as it was', () => {
    const before = Error.stackTraceLimit;
    let refusal: unknown;
    try {
      parsed(schema, { count: 1.5 }, 'json');
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(ApiError);
    expect((refusal as ApiError).errors?.map((e) => [e.param, e.code])).toEqual([
      ['name', 'required'],
      ['count', 'invalid_type'],
    ]);
    expect(Error.stackTraceLimit).toBe(before);
  });
});
