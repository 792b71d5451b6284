import { readFileSync } from 'node:fs';
import { FormData } from 'undici';
import type { ExchangeLine } from './recording-format.js';
import type { IdMap } from './replay-ids.js';
import type { CallOptions } from './target-client.js';

/**
 * A recorded request made again for the target: the same method, path, query, body and the
 * headers that carry meaning (content type, accept, `Idempotency-Key`), with every id the replay
 * learned replaced by the target's. Authentication is the replay's own. A multipart upload's files
 * were not recorded (only their names, types and sizes): the replay sends the sample document of the
 * same type the package ships in `fixtures/`.
 */

const FIXTURES = new URL('../../fixtures/', import.meta.url);
const SAMPLE_BY_TYPE: Record<string, string> = {
  'application/pdf': 'sample.pdf',
  'image/jpeg': 'sample.jpg',
  'image/jpg': 'sample.jpg',
  'image/png': 'sample.png',
};
const KEPT_HEADERS = new Set(['accept', 'accept-language', 'content-type']);

/** The fixture file a recorded upload of this content type becomes. */
export function sampleFor(contentType: string): string {
  return SAMPLE_BY_TYPE[contentType.toLowerCase()] ?? 'sample.pdf';
}

function sampleBytes(contentType: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(readFileSync(new URL(sampleFor(contentType), FIXTURES))) as Uint8Array<ArrayBuffer>;
}

export interface ReplayRequest {
  method: string;
  /** After the base URL, query included: `/customers/cust_…?limit=2`. */
  path: string;
  options: CallOptions;
}

export interface RequestRewrite {
  ids: IdMap;
  /** Appended to every `Idempotency-Key`, so a second replay on the same partner is not answered from cache. */
  runId: string;
  /** Replaces `url` in webhook endpoint bodies (the recording's relay URL may not exist any more). */
  webhookUrl?: string;
}

export function replayRequest(line: ExchangeLine, rewrite: RequestRewrite): ReplayRequest {
  const { ids } = rewrite;
  const recorded = line.request;
  const path = ids.substitute(recorded.path.slice('/v3'.length));
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(recorded.headers)) {
    if (KEPT_HEADERS.has(name)) headers[name] = value;
  }
  const key = recorded.headers['idempotency-key'];
  if (key !== undefined) headers['idempotency-key'] = `${ids.substitute(key).slice(0, 200)}-${rewrite.runId}`;
  const contentType = (headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
  const options: CallOptions = { headers };
  if (recorded.form) {
    delete headers['content-type'];
    const form = new FormData();
    for (const [field, value] of Object.entries(recorded.form.fields)) form.set(field, ids.substitute(value));
    for (const file of recorded.form.files) {
      form.set(
        file.field,
        new Blob([sampleBytes(file.content_type)], { type: file.content_type }),
        file.filename,
      );
    }
    options.form = form;
  } else if (recorded.body !== null && recorded.body !== undefined) {
    let body = ids.substituteValue(recorded.body);
    if (
      rewrite.webhookUrl &&
      /^\/webhooks\/endpoints/.test(path) &&
      typeof body === 'object' &&
      body !== null &&
      'url' in body
    ) {
      body = { ...body, url: rewrite.webhookUrl };
    }
    if (contentType === 'application/x-www-form-urlencoded' && typeof body === 'object') {
      options.text = new URLSearchParams(body as Record<string, string>).toString();
    } else if (typeof body === 'string') {
      options.text = body;
    } else {
      delete headers['content-type'];
      options.json = body;
    }
  }
  return { method: recorded.method, path, options };
}
