/**
 * The structural differ shared by `conformance --compare` and `replay`: it tells two answers to the
 * same request apart by what an integration depends on — the status, the error code, the fields
 * present, their JSON types, enum values and the media type — and ignores what legitimately
 * differs between two implementations or two runs: ids, timestamps, secrets, amounts and free
 * text. A string is compared by value only when either side is one of the enum values the
 * OpenAPI document declares (statuses, event types, error codes…), or when it is the problem's
 * `code`.
 *
 * It knows nothing of the server: only JSON and the OpenAPI document a client can download.
 */

/** What kind of departure a difference is. */
export type DifferenceKind =
  | 'status'
  | 'code'
  | 'media-type'
  | 'header'
  | 'missing'
  | 'unexpected'
  | 'type'
  | 'enum';

/** One structural difference between an expected answer (left) and an actual one (right). */
export interface Difference {
  /** Where: `status`, `header location`, `body`, `body.code`, `body.data[0].kyc[1].status`. */
  at: string;
  kind: DifferenceKind;
  /** What the left side had, for a reader (`201`, `"active"`, `string`, `present`). */
  expected: string;
  /** What the right side had. */
  actual: string;
}

/** The parts of an answer the differ reads. Header names are lower case. */
export interface AnswerShape {
  status: number;
  headers?: Readonly<Record<string, string | undefined>>;
  /** The parsed JSON body; `undefined` when there was none or it was not JSON. */
  body?: unknown;
}

export interface DiffRules {
  /** Strings compared by value (see `enumValuesOf`). */
  enumValues: ReadonlySet<string>;
  /** Headers whose presence is compared (lower case). Default: `location`, `retry-after`. */
  headers?: readonly string[];
}

const DEFAULT_HEADERS = ['location', 'retry-after'] as const;

type JsonType = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';

function jsonType(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const type = typeof value;
  if (type === 'boolean' || type === 'number' || type === 'string') return type;
  return 'object';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Every string an OpenAPI document declares in an `enum` or a `const`, anywhere (schemas,
 * parameters, webhooks). Walks iteratively, so a deep document cannot overflow the stack.
 */
export function enumValuesOf(document: unknown): Set<string> {
  const values = new Set<string>();
  const seen = new Set<object>();
  const pending: unknown[] = [document];
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node !== 'object' || node === null || seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const item of node) pending.push(item);
      continue;
    }
    const record = node as Record<string, unknown>;
    if (Array.isArray(record.enum)) {
      for (const value of record.enum) if (typeof value === 'string') values.add(value);
    }
    if (typeof record.const === 'string') values.add(record.const);
    for (const value of Object.values(record)) pending.push(value);
  }
  return values;
}

/** The media type of a `Content-Type` header, lower case, without parameters. */
export function mediaType(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  const type = contentType.split(';', 1)[0]?.trim().toLowerCase();
  return type === '' ? undefined : type;
}

/** Differences between two answers to the same request: status, headers, media type, body. */
export function diffAnswers(expected: AnswerShape, actual: AnswerShape, rules: DiffRules): Difference[] {
  const out: Difference[] = [];
  if (expected.status !== actual.status) {
    out.push({
      at: 'status',
      kind: 'status',
      expected: String(expected.status),
      actual: String(actual.status),
    });
  }
  const left = expected.headers ?? {};
  const right = actual.headers ?? {};
  for (const name of rules.headers ?? DEFAULT_HEADERS) {
    const had = left[name] !== undefined;
    const has = right[name] !== undefined;
    if (had !== has) {
      out.push({ at: `header ${name}`, kind: 'header', expected: presence(had), actual: presence(has) });
    }
  }
  const leftType = mediaType(left['content-type']);
  const rightType = mediaType(right['content-type']);
  if (leftType !== undefined && rightType !== undefined && leftType !== rightType) {
    out.push({ at: 'header content-type', kind: 'media-type', expected: leftType, actual: rightType });
  }
  const code = problemCodes(expected.body, actual.body);
  if (code) out.push(code);
  out.push(...diffValues(expected.body, actual.body, rules, 'body'));
  return out;
}

function presence(present: boolean): string {
  return present ? 'present' : 'absent';
}

/** A problem's `code` is compared whatever its value: it is what an integration branches on. */
function problemCodes(left: unknown, right: unknown): Difference | undefined {
  if (!isObject(left) || !isObject(right)) return undefined;
  const a = left.code;
  const b = right.code;
  if (typeof a !== 'string' || typeof b !== 'string' || a === b) return undefined;
  return { at: 'body.code', kind: 'code', expected: a, actual: b };
}

/**
 * Differences between two JSON values, walking both at once (iteratively). Objects: fields
 * missing on the right or unexpected on it, then each shared field. Arrays: items compared pair by
 * pair up to the shorter length (lists of two partners legitimately hold different numbers of
 * rows). Strings: by value when either is an enum value, except at `body.code` (compared by
 * `diffAnswers`).
 */
export function diffValues(expected: unknown, actual: unknown, rules: DiffRules, at = 'body'): Difference[] {
  const out: Difference[] = [];
  const pending: Array<[unknown, unknown, string]> = [[expected, actual, at]];
  while (pending.length > 0) {
    const [left, right, path] = pending.pop()!;
    if (left === undefined || right === undefined) {
      if (left !== right)
        out.push({
          at: path,
          kind: left === undefined ? 'unexpected' : 'missing',
          expected: left === undefined ? 'absent' : 'present',
          actual: right === undefined ? 'absent' : 'present',
        });
      continue;
    }
    const leftType = jsonType(left);
    const rightType = jsonType(right);
    if (leftType !== rightType) {
      out.push({ at: path, kind: 'type', expected: leftType, actual: rightType });
      continue;
    }
    if (leftType === 'string') {
      if (
        left !== right &&
        path !== 'body.code' &&
        (rules.enumValues.has(left as string) || rules.enumValues.has(right as string))
      ) {
        out.push({ at: path, kind: 'enum', expected: JSON.stringify(left), actual: JSON.stringify(right) });
      }
      continue;
    }
    if (leftType === 'array') {
      const a = left as unknown[];
      const b = right as unknown[];
      const n = Math.min(a.length, b.length);
      for (let i = n - 1; i >= 0; i--) pending.push([a[i], b[i], `${path}[${i}]`]);
      continue;
    }
    if (leftType === 'object') {
      const a = left as Record<string, unknown>;
      const b = right as Record<string, unknown>;
      const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort().reverse();
      for (const key of keys) pending.push([a[key], b[key], `${path}.${key}`]);
    }
  }
  return out;
}

/**
 * Differences between two sequences of event types (what a webhook receiver saw, in order):
 * position by position, then what one side has beyond the other's end.
 */
export function diffEventTypes(
  expected: readonly string[],
  actual: readonly string[],
  at = 'events',
): Difference[] {
  const out: Difference[] = [];
  const n = Math.max(expected.length, actual.length);
  for (let i = 0; i < n; i++) {
    const a = expected[i];
    const b = actual[i];
    if (a === b) continue;
    if (a === undefined) out.push({ at: `${at}[${i}]`, kind: 'unexpected', expected: 'absent', actual: b! });
    else if (b === undefined) out.push({ at: `${at}[${i}]`, kind: 'missing', expected: a, actual: 'absent' });
    else out.push({ at: `${at}[${i}]`, kind: 'enum', expected: a, actual: b });
  }
  return out;
}

/** One line for a reader: `body.data[0].status: enum "active" → "pending_kyc"`. */
export function describeDifference(difference: Difference): string {
  return `${difference.at}: ${difference.kind} ${difference.expected} → ${difference.actual}`;
}
