/**
 * Value paths of scenario files: `loan.status`, `txs.data[2].due_date`, `events.data[-1]`,
 * `txs.data[installment_number=3].amount_due`, `response.headers.location`. A path starts at a
 * root name (a param group, a captured value, the step's response) and walks object keys, array
 * indexes (negative from the end) and `[field=value]` selectors (the first item whose field equals
 * the value). `length` of an array or a string works as in JavaScript.
 */

export type PathSegment =
  | { kind: 'key'; name: string }
  | { kind: 'index'; index: number }
  | { kind: 'select'; field: string; value: string };

export interface ParsedPath {
  root: string;
  segments: PathSegment[];
}

/** A problem with a scenario at run time (unknown name, malformed path, …): its message is the step's detail. */
export class ScenarioError extends Error {
  override name = 'ScenarioError';
}

const NAME = /^[A-Za-z_][\w-]*/;

/** Whether `text` has the shape of a path (a name, then `.key` / `[…]` parts). */
export function looksLikePath(text: string): boolean {
  try {
    parsePath(text);
    return true;
  } catch {
    return false;
  }
}

/** Parses a path; `$` and `$.` prefixes (JSONPath habit) are accepted and dropped by `capture`. */
export function parsePath(text: string): ParsedPath {
  const rootMatch = NAME.exec(text);
  if (!rootMatch) throw new ScenarioError(`"${text}" is not a path (expected a name like loan.status)`);
  const root = rootMatch[0];
  const segments: PathSegment[] = [];
  let rest = text.slice(root.length);
  while (rest.length > 0) {
    if (rest.startsWith('.')) {
      const key = NAME.exec(rest.slice(1)) ?? /^\d+/.exec(rest.slice(1));
      if (!key) throw new ScenarioError(`"${text}": expected a name after "."`);
      segments.push({ kind: 'key', name: key[0] });
      rest = rest.slice(1 + key[0].length);
    } else if (rest.startsWith('[')) {
      const close = rest.indexOf(']');
      if (close < 0) throw new ScenarioError(`"${text}": "[" without a closing "]"`);
      segments.push(bracket(text, rest.slice(1, close).trim()));
      rest = rest.slice(close + 1);
    } else {
      throw new ScenarioError(
        `"${text}": unexpected "${rest[0]}" (paths look like loan.status or txs.data[0])`,
      );
    }
  }
  return { root, segments };
}

function bracket(text: string, inner: string): PathSegment {
  if (/^-?\d+$/.test(inner)) return { kind: 'index', index: Number(inner) };
  const eq = inner.indexOf('=');
  if (eq > 0) {
    const field = inner.slice(0, eq).trim();
    const value = unquote(inner.slice(eq + 1).trim());
    if (NAME.exec(field)?.[0] === field) return { kind: 'select', field, value };
  }
  throw new ScenarioError(
    `"${text}": [${inner}] must be an index like [0] or [-1], or a selector like [installment_number=3]`,
  );
}

function unquote(text: string): string {
  const quoted = /^"(.*)"$|^'(.*)'$/.exec(text);
  return quoted ? (quoted[1] ?? quoted[2] ?? '') : text;
}

/** Walks `segments` from `value`; undefined as soon as a step finds nothing. */
export function walk(value: unknown, segments: readonly PathSegment[]): unknown {
  let current = value;
  for (const segment of segments) {
    if (current === null || current === undefined) return undefined;
    if (segment.kind === 'key') {
      if (segment.name === 'length' && (Array.isArray(current) || typeof current === 'string')) {
        current = current.length;
      } else if (typeof current === 'object' && Object.hasOwn(current, segment.name)) {
        current = (current as Record<string, unknown>)[segment.name];
      } else {
        return undefined;
      }
    } else if (segment.kind === 'index') {
      if (!Array.isArray(current)) return undefined;
      current = current.at(segment.index);
    } else {
      if (!Array.isArray(current)) return undefined;
      current = current.find(
        (item) =>
          item !== null &&
          typeof item === 'object' &&
          String((item as Record<string, unknown>)[segment.field]) === segment.value,
      );
    }
  }
  return current;
}
