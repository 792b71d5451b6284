import fc from 'fast-check';
import { expect } from 'vitest';
import type { BadInputTarget } from './bad-input.js';
import { importRaw, type SnapshotDocument } from './snapshot-imports.js';

/**
 * The bad-input suite's property for snapshot imports (issue 40), shared by memory and
 * PostgreSQL: fast-check edits of a real export — types changed, fields dropped, NUL, lone
 * surrogates, huge strings, deep nesting, out-of-range numbers and dates, dangling references,
 * duplicate ids, huge sequence numbers — sent as JSON or gzip. Every answer is either 201 with a
 * world whose every read, a clock advance (its jobs run), a payment and a save answer < 500, or a
 * 4xx that kept nothing (no row, no snapshot).
 */

type Path = (string | number)[];

/** Every field of every row (and of nested objects and arrays, 3 levels down), and the clock. */
function fieldPaths(document: SnapshotDocument): Path[] {
  const paths: Path[] = [['clock', 'now'], ['clock', 'frozen'], ['random_draws'], ['saved_at']];
  const walk = (value: unknown, path: Path, depth: number) => {
    paths.push(path);
    if (depth >= 5 || value === null || typeof value !== 'object') return;
    for (const [key, item] of Object.entries(value))
      walk(item, [...path, Array.isArray(value) ? Number(key) : key], depth + 1);
  };
  for (const [table, rows] of Object.entries(document.tables)) {
    rows.forEach((row, index) => {
      for (const [key, value] of Object.entries(row)) walk(value, ['tables', table, index, key], 3);
    });
  }
  return paths;
}

const nested = (depth: number) => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`) as unknown;

/** A hostile value for any field. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    true,
    0,
    -1,
    1.5,
    1e308,
    -1e308,
    2 ** 53,
    Number.MAX_SAFE_INTEGER,
    '',
    'a\u0000b',
    '\ud800',
    'x\udfffy',
    '+275760-09-12T23:59:59.000Z',
    '9999-12-31T23:59:59.999Z',
    '1900-01-01T00:00:00.000Z',
    '2026-02-30',
    '2026-03-02T12:00:00.000Z',
    '1000',
    '1000.00',
    '-1.00',
    'cust_ffffffffffffffffffffffffffffffff',
    'ln_ffffffffffffffffffffffffffffffff',
    'job_ffffffffffffffffffffffffffffffff',
    'http://127.0.0.1:9/other',
    [],
    {},
    [null],
  ),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 20, unit: 'binary' }),
  fc.integer({ min: 1, max: 200_000 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 10, max: 30 }).map(nested),
  fc.jsonValue({ maxDepth: 3 }),
);

type Edit =
  | { kind: 'set'; path: Path; value: unknown }
  | { kind: 'drop'; path: Path }
  | { kind: 'copy-row'; path: Path };

/**
 * Values the document itself holds under each field name (statuses, amounts, dates, ids): set
 * elsewhere, they make worlds that pass every schema yet hold states the API never reaches (an
 * active loan without installments, an offer accepted twice), which reads must still survive.
 */
function valuesByField(document: SnapshotDocument): Map<string, unknown[]> {
  const pool = new Map<string, unknown[]>();
  const walk = (value: unknown) => {
    if (value === null || typeof value !== 'object') return;
    for (const [key, item] of Object.entries(value)) {
      if (!Array.isArray(value)) {
        const seen = pool.get(key) ?? [];
        if (seen.length < 50 && !seen.some((v) => JSON.stringify(v) === JSON.stringify(item)))
          seen.push(item);
        pool.set(key, seen);
      }
      walk(item);
    }
  };
  walk(document.tables);
  return pool;
}

function editArbitrary(document: SnapshotDocument): fc.Arbitrary<Edit> {
  const paths = fieldPaths(document);
  const pool = valuesByField(document);
  const path = fc.constantFrom(...paths);
  const reuse = path.chain((at): fc.Arbitrary<Edit> => {
    const values = pool.get(String(at.at(-1))) ?? [];
    return values.length > 0
      ? fc.constantFrom(...values).map((value) => ({ kind: 'set' as const, path: at, value }))
      : fc.constant({ kind: 'drop' as const, path: at });
  });
  return fc.oneof(
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('set' as const), path, value: hostileValue }) },
    { weight: 5, arbitrary: reuse },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('drop' as const), path }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('copy-row' as const), path }) },
  );
}

function apply(document: SnapshotDocument, edits: readonly Edit[]): SnapshotDocument {
  const copy = structuredClone(document) as unknown as Record<string | number, unknown>;
  for (const edit of edits) {
    const parent = edit.path
      .slice(0, -1)
      .reduce<unknown>((at, key) => (at as Record<string | number, unknown>)?.[key], copy);
    const last = edit.path.at(-1) as string | number;
    if (parent === null || typeof parent !== 'object') continue;
    const holder = parent as Record<string | number, unknown>;
    if (edit.kind === 'set') holder[last] = edit.value;
    else if (edit.kind === 'drop') delete holder[last];
    else if (edit.path[0] === 'tables') {
      const rows = (copy.tables as Record<string, unknown[]>)[String(edit.path[1])];
      const row = rows?.[Number(edit.path[2])];
      if (rows && row) rows.push(structuredClone(row));
    }
  }
  return copy as unknown as SnapshotDocument;
}

/** A fresh token of the partner (a clock advance of days expires the one in use). */
async function renewToken(target: BadInputTarget): Promise<void> {
  const res = await target.send('/v3/auth/token', {
    method: 'POST',
    headers: { authorization: target.basic },
  });
  expect(res.status).toBe(200);
  target.token = ((await res.json()) as { access_token: string }).access_token;
}

async function call(target: BadInputTarget, method: string, path: string, body?: unknown) {
  const send = () =>
    target.send(path, {
      method,
      headers: {
        authorization: `Bearer ${target.token}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  let res = await send();
  if (res.status === 401) {
    await renewToken(target);
    res = await send();
  }
  const text = await res.text();
  if (res.status >= 500) throw new Error(`${method} ${path} -> ${res.status} ${text.slice(0, 400)}`);
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}

const LISTS = [
  '/v3/customers?limit=100',
  '/v3/credit-offers?limit=100',
  '/v3/loans?limit=100',
  '/v3/webhooks/endpoints?limit=100',
  '/v3/sandbox/events?limit=100',
  '/v3/sandbox/deliveries?limit=100',
  '/v3/sandbox/snapshots',
];

/** Every read of the partner's world: lists, then each object they name and what hangs off it. */
async function readEverything(target: BadInputTarget, document: SnapshotDocument): Promise<void> {
  await call(target, 'GET', '/v3/sandbox/clock');
  for (const path of LISTS) await call(target, 'GET', path);
  const ids = (table: string) =>
    (document.tables[table] ?? []).map((row) => String((row as { id?: unknown }).id)).slice(0, 20);
  for (const id of ids('customers')) {
    await call(target, 'GET', `/v3/customers/${id}`);
    await call(target, 'GET', `/v3/customers/${id}/credit-offers`);
  }
  for (const row of (document.tables.documents ?? []).slice(0, 20)) {
    await call(target, 'GET', `/v3/customers/${String(row.customer_id)}/documents/${String(row.id)}`);
  }
  for (const id of ids('credit_offers')) await call(target, 'GET', `/v3/credit-offers/${id}`);
  for (const id of ids('loans')) {
    await call(target, 'GET', `/v3/loans/${id}`);
    await call(target, 'GET', `/v3/loans/${id}/transactions`);
  }
  for (const id of ids('webhook_endpoints')) {
    await call(target, 'GET', `/v3/webhooks/endpoints/${id}`);
    await call(target, 'GET', `/v3/sandbox/webhooks/endpoints/${id}/chaos`);
  }
  for (const id of ids('events')) await call(target, 'GET', `/v3/sandbox/events/${id}`);
}

/** The partner holds nothing: no row in any list, no snapshot. */
async function expectEmpty(target: BadInputTarget, label: string): Promise<void> {
  for (const path of LISTS) {
    const { body } = await call(target, 'GET', path);
    expect(body.data, `${label}: ${path}`).toEqual([]);
  }
}

async function startOver(target: BadInputTarget): Promise<void> {
  await call(target, 'POST', '/v3/sandbox/reset');
  const { body } = await call(target, 'GET', '/v3/sandbox/snapshots');
  for (const snapshot of body.data as { name: string }[]) {
    await call(target, 'DELETE', `/v3/sandbox/snapshots/${snapshot.name}`);
  }
}

/** Runs the property; returns how many edited worlds were imported (201) and refused (4xx). */
export async function runImportProperty(
  target: BadInputTarget,
  document: SnapshotDocument,
  numRuns: number,
): Promise<{ imported: number; refused: number }> {
  const counts = { imported: 0, refused: 0 };
  await startOver(target);
  await fc.assert(
    fc.asyncProperty(
      fc.array(editArbitrary(document), { minLength: 1, maxLength: 3 }),
      fc.boolean(),
      async (edits, gzip) => {
        await renewToken(target);
        const changed = apply(document, edits);
        const label = JSON.stringify(edits).slice(0, 300);
        const res = await importRaw(target.send, target.token, JSON.stringify(changed), { gzip });
        if (res.status >= 500)
          throw new Error(`import of ${label} -> ${res.status} ${JSON.stringify(res.body).slice(0, 400)}`);
        expect(res.status, label).not.toBe(200);
        if (res.status !== 201) {
          expect(res.status, label).toBeGreaterThanOrEqual(400);
          await expectEmpty(target, label);
          counts.refused++;
          return;
        }
        counts.imported++;
        await readEverything(target, changed);
        await call(target, 'POST', '/v3/sandbox/clock/advance', { by: '40d' });
        await readEverything(target, changed);
        for (const loan of (changed.tables.loans ?? []).slice(0, 3)) {
          await call(target, 'POST', `/v3/sandbox/loans/${String(loan.id)}/payments`, { amount: '1.00' });
        }
        await call(target, 'POST', '/v3/sandbox/snapshots', { name: 'after', replace: true });
        await call(target, 'GET', '/v3/sandbox/snapshots/after/export');
        await call(target, 'POST', `/v3/sandbox/snapshots/${changed.name}/restore`);
        await startOver(target);
      },
    ),
    { numRuns, seed: Number(process.env.IMPORT_FUZZ_SEED ?? 20261127), endOnFailure: true },
  );
  return counts;
}
