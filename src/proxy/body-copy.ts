import { isUtf8 } from 'node:buffer';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { jsonDepth } from '../lib/json-depth.js';

/**
 * A bounded copy of a body streaming through the proxy: the chunks are kept while their total stays
 * within `limit`; past it the copy is dropped (and only the size counted), so a body of any size
 * costs at most `limit` bytes of memory while the original streams on unchanged.
 */
export class BodyCopy {
  private chunks: Buffer[] = [];
  private kept = 0;
  /** Bytes seen in all. */
  size = 0;
  /** Whether the copy holds the whole body. */
  complete = true;

  constructor(private readonly limit: number) {}

  add(chunk: Buffer): void {
    this.size += chunk.length;
    if (!this.complete) return;
    if (this.kept + chunk.length > this.limit) {
      this.complete = false;
      this.chunks = [];
      this.kept = 0;
      return;
    }
    this.chunks.push(chunk);
    this.kept += chunk.length;
  }

  /** The body as captured: its bytes when whole, else only its size. */
  result(): CapturedBody {
    if (!this.complete) return { size: this.size, bytes: undefined };
    const bytes = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.kept);
    return { size: this.size, bytes };
  }
}

/** A body as the proxy saw it. `bytes` is undefined when it was larger than the copy's limit. */
export interface CapturedBody {
  size: number;
  bytes: Buffer | undefined;
}

/** What a body says once parsed for validation and recording. */
export type ParsedBody =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'form'; value: Record<string, string> }
  | { kind: 'multipart'; fields: Record<string, string>; files: FilePart[] }
  | { kind: 'text'; text: string }
  | { kind: 'binary'; size: number }
  | { kind: 'invalid'; reason: string }
  | { kind: 'too-large'; size: number }
  | { kind: 'too-deep' };

export interface FilePart {
  field: string;
  filename: string;
  content_type: string;
  size: number;
}

/** JSON deeper than this is not parsed (the API refuses bodies past 64 levels; redaction cuts there). */
export const MAX_JSON_DEPTH = 64;

/** Whether a media type is JSON (`application/json`, `application/problem+json`…). */
export function isJsonMedia(media: string | undefined): boolean {
  return media !== undefined && (media === 'application/json' || media.endsWith('+json'));
}

/** Decoded bodies larger than this are not parsed (a small compressed body can decode to a lot). */
export const MAX_DECODED_BYTES = 16 * 1024 * 1024;

const DECODERS: Record<string, (bytes: Buffer, options: { maxOutputLength: number }) => Buffer> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/**
 * Parses a captured body by its media type (multipart through undici's FormData parser), decoded
 * first by its `Content-Encoding` (an upstream compresses answers a client accepts compressed).
 */
export async function parseBody(
  body: CapturedBody,
  contentType: string | undefined,
  contentEncoding?: string | undefined,
): Promise<ParsedBody> {
  if (body.size === 0) return { kind: 'none' };
  if (body.bytes === undefined) return { kind: 'too-large', size: body.size };
  const encoding = contentEncoding?.trim().toLowerCase();
  if (encoding && encoding !== 'identity') {
    const decode = DECODERS[encoding];
    if (!decode) return { kind: 'invalid', reason: `an unknown Content-Encoding (${encoding})` };
    let decoded: Buffer;
    try {
      decoded = decode(body.bytes, { maxOutputLength: MAX_DECODED_BYTES });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
        return { kind: 'too-large', size: MAX_DECODED_BYTES };
      }
      return { kind: 'invalid', reason: `not valid ${encoding}` };
    }
    return parseBody({ size: decoded.byteLength, bytes: decoded }, contentType);
  }
  const media = contentType?.split(';', 1)[0]?.trim().toLowerCase();
  if (media === 'multipart/form-data') return parseMultipart(body.bytes, contentType!);
  if (!isUtf8(body.bytes)) {
    return isJsonMedia(media) || media?.startsWith('text/')
      ? { kind: 'invalid', reason: 'not valid UTF-8' }
      : { kind: 'binary', size: body.size };
  }
  const text = body.bytes.toString('utf8');
  if (isJsonMedia(media)) {
    if (jsonDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) return { kind: 'too-deep' };
    try {
      return { kind: 'json', value: JSON.parse(text) };
    } catch {
      return { kind: 'invalid', reason: 'not JSON' };
    }
  }
  if (media === 'application/x-www-form-urlencoded') {
    return { kind: 'form', value: Object.fromEntries(new URLSearchParams(text)) };
  }
  return { kind: 'text', text };
}

async function parseMultipart(bytes: Buffer, contentType: string): Promise<ParsedBody> {
  const { Response } = await import('undici');
  let form: Awaited<ReturnType<InstanceType<typeof Response>['formData']>>;
  try {
    form = await new Response(bytes, { headers: { 'content-type': contentType } }).formData();
  } catch {
    return { kind: 'invalid', reason: 'not a readable multipart/form-data body' };
  }
  const fields: Record<string, string> = {};
  const files: FilePart[] = [];
  for (const [field, value] of form.entries()) {
    if (typeof value === 'string') fields[field] = value;
    else files.push({ field, filename: value.name, content_type: value.type, size: value.size });
  }
  return { kind: 'multipart', fields, files };
}

/** The value a body's schema is checked against (files stand in as strings, as `format: binary`). */
export function schemaValue(parsed: ParsedBody): unknown {
  switch (parsed.kind) {
    case 'json':
    case 'form':
      return parsed.value;
    case 'multipart':
      return {
        ...parsed.fields,
        ...Object.fromEntries(parsed.files.map((file) => [file.field, `(${file.size} bytes)`])),
      };
    case 'text':
      return parsed.text;
    default:
      return undefined;
  }
}
