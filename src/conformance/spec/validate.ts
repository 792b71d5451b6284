import type { z } from 'zod';
import type { Answer } from '../http.js';
import { fail, show } from '../verdict.js';

/** Each way `value` departs from `schema`, as `path: what was expected (what came)`. */
export function shapeIssues(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  if (result.success) return [];
  return result.error.issues.map((issue) => {
    const path = issue.path.length === 0 ? '(the value)' : issue.path.map(String).join('.');
    const got = valueAt(value, issue.path as PropertyKey[]);
    return `${path}: ${issue.message} (got ${got === undefined ? 'nothing' : show(got)?.slice(0, 80)})`;
  });
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let node = value;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

/** Fails with every issue when `value` is not of the spec's shape; returns it typed otherwise. */
export function expectShape<T extends z.ZodType>(
  schema: T,
  value: unknown,
  what: string,
  answer?: Answer,
): z.infer<T> {
  const issues = shapeIssues(schema, value);
  if (issues.length > 0) fail(`${what}: ${issues[0]}`, `the spec's ${what}`, issues.join('; '), answer);
  return value as z.infer<T>;
}
