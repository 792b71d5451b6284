import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.js';

function thrownFrom(depth: number, make: () => ApiError): ApiError {
  return depth === 0 ? make() : thrownFrom(depth - 1, make);
}

describe('ApiError stacks', () => {
  it('a refusal (4xx) captures no stack frames; the limit is put back', () => {
    const before = Error.stackTraceLimit;
    const error = thrownFrom(5, () => new ApiError('resource_not_found', 'No customer.'));
    expect(error.status).toBe(404);
    expect(error.stack).toBe('ApiError: No customer.');
    expect(Error.stackTraceLimit).toBe(before);
    expect(new Error('after').stack).toMatch(/\n\s+at /);
  });

  it('a 5xx keeps its stack for the log, and a status given in options decides', () => {
    const fault = thrownFrom(5, () => new ApiError('internal_error', 'Broke.'));
    expect(fault.stack).toMatch(/\n\s+at thrownFrom/);
    const asStorage = new ApiError('resource_not_found', 'x', { status: 500 });
    expect(asStorage.stack).toMatch(/\n\s+at /);
  });
});
