import { createGunzip } from 'node:zlib';
import { ApiError } from '../domain/errors.js';
import { MAX_SNAPSHOT_BYTES } from '../domain/snapshots.js';
import { MAX_JSON_DEPTH } from '../http/middleware/well-formed-text.js';
import { compactJsonBytes, jsonDepth } from '../lib/json-depth.js';

/** Largest import once decompressed: the biggest world plus the document around it. */
export const MAX_DOCUMENT_BYTES = MAX_SNAPSHOT_BYTES + 1024 * 1024;

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

function invalid(detail: string): ApiError {
  return new ApiError('snapshot_invalid', `${detail} Nothing was imported.`, { param: 'body' });
}

function tooBig(): ApiError {
  return new ApiError(
    'snapshot_limit_reached',
    `The document is larger than ${MAX_DOCUMENT_BYTES} bytes once decompressed; a snapshot holds at most ${MAX_SNAPSHOT_BYTES}. Nothing was imported.`,
  );
}

/**
 * Decompresses gzip data as a stream and stops as soon as the output passes `limit` bytes, so a
 * small body that inflates a thousandfold never takes more than `limit` of memory (nor blocks the
 * event loop for the whole inflation). Rejects with `tooBig` past the limit, `snapshot_invalid`
 * for damaged or cut data.
 */
export function gunzipCapped(data: Uint8Array, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const gunzip = createGunzip();
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (error: ApiError | undefined) => {
      if (settled) return;
      settled = true;
      if (error) {
        gunzip.destroy();
        reject(error);
      } else resolve(Buffer.concat(chunks, size));
    };
    gunzip.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) finish(tooBig());
      else chunks.push(chunk);
    });
    gunzip.on('error', () => finish(invalid('The gzip data is damaged or cut short.')));
    gunzip.on('end', () => finish(undefined));
    gunzip.end(data);
  });
}

/**
 * Turns an uploaded export (JSON, or gzip of it: recognised by its first bytes, whatever the
 * Content-Type) into the parsed document. Refuses, before anything parses it: more than
 * MAX_DOCUMENT_BYTES once decompressed (`snapshot_limit_reached`), invalid UTF-8 and text that is
 * not JSON (`snapshot_invalid`), and nesting deeper than the API's JSON bodies may go
 * (`json_too_deep`, the same bound as for every `application/json` body). `beforeParse` is told
 * the document's compact size first, and may refuse it.
 */
export async function parseSnapshotUpload(
  bytes: Uint8Array,
  beforeParse: (compactBytes: number) => void = () => {},
): Promise<unknown> {
  let data: Uint8Array = bytes;
  if (data[0] === 0x1f && data[1] === 0x8b) data = await gunzipCapped(data, MAX_DOCUMENT_BYTES);
  else if (data.byteLength > MAX_DOCUMENT_BYTES) throw tooBig();
  if (data.byteLength === 0) throw invalid('The body is empty: send the export document.');
  let text: string;
  try {
    text = STRICT_UTF8.decode(data);
  } catch {
    throw invalid('The document is not valid UTF-8.');
  }
  if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    throw new ApiError(
      'json_too_deep',
      `The document nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep; an export nests at most 7. Nothing was imported.`,
      { param: 'body' },
    );
  }
  // Told the document's size before parsing it: an import with no room left is refused without it.
  beforeParse(compactJsonBytes(text));
  try {
    return JSON.parse(text);
  } catch {
    throw invalid('The document is not valid JSON (damaged or cut short).');
  }
}

let importing: Promise<unknown> = Promise.resolve();

/**
 * Runs imports one after the other: a document in memory (its body, the decompressed bytes, the
 * parsed rows) is held by one import at a time, so concurrent imports cannot multiply the peak.
 */
export function oneImportAtATime<T>(run: () => Promise<T>): Promise<T> {
  const turn = importing.then(run, run);
  importing = turn.catch(() => {});
  return turn;
}
