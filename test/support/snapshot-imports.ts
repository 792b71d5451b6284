import { gzipSync } from 'node:zlib';
import { createTestSandbox, type TestSandbox } from './sandbox.js';
import { acceptAll, buildWorld } from './snapshots.js';

/** An export document, as `GET /v3/sandbox/snapshots/{name}/export` answers it. */
export interface SnapshotDocument {
  format: string;
  version: number;
  partner: string;
  name: string;
  saved_at: string;
  clock: { now: string; frozen: boolean };
  random_draws: number | null;
  tables: Record<string, Record<string, unknown>[]>;
}

/** Sends one raw request (the in-memory app or a real server). */
export type Send = (path: string, init: RequestInit) => Promise<Response>;

let fixture: Promise<string> | undefined;

/**
 * The export of a world with something of everything (see `buildWorld`): a webhook endpoint with
 * chaos and delivered events, an active customer, an offer, a simulation, a signed loan with a
 * pending job, an idempotency key. Built once per test file and handed out as fresh copies.
 */
export async function exportedWorld(): Promise<SnapshotDocument> {
  fixture ??= (async () => {
    const sandbox = createTestSandbox({}, { webhookSender: acceptAll });
    await buildWorld(sandbox);
    await sandbox.json('POST', '/v3/sandbox/snapshots', { body: { name: 'fixture' } });
    const res = await sandbox.request('GET', '/v3/sandbox/snapshots/fixture/export');
    if (res.status !== 200) throw new Error(`export failed: ${res.status}`);
    return res.text();
  })();
  return JSON.parse(await fixture) as SnapshotDocument;
}

/** A copy of the document with `change` applied to it. */
export function edited(
  document: SnapshotDocument,
  change: (doc: SnapshotDocument) => void,
): SnapshotDocument {
  const copy = structuredClone(document);
  change(copy);
  return copy;
}

/** The first row of a table of the document (throws when there is none). */
export function firstRow(document: SnapshotDocument, table: string): Record<string, unknown> {
  const row = document.tables[table]?.[0];
  if (!row) throw new Error(`the fixture has no ${table}`);
  return row;
}

/** `POST /v3/sandbox/snapshots/import` with a raw body: JSON text, or gzip when `gzip` is set. */
export async function importRaw(
  send: Send,
  token: string,
  body: string | Uint8Array,
  options: { contentType?: string | null; query?: string; gzip?: boolean } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const bytes = options.gzip ? gzipSync(body) : body;
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  const type =
    options.contentType === undefined
      ? options.gzip
        ? 'application/gzip'
        : 'application/json'
      : options.contentType;
  if (type !== null) headers['content-type'] = type;
  const res = await send(`/v3/sandbox/snapshots/import${options.query ?? ''}`, {
    method: 'POST',
    headers,
    body: bytes,
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** An in-memory sandbox's `send`. */
export function sendTo(sandbox: TestSandbox): Send {
  return async (path, init) => sandbox.app.request(path, init);
}
