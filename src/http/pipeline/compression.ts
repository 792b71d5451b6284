import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import Negotiator from 'negotiator';
import { Answer, answerHeader } from './answer.js';

/** Answers smaller than this are sent as they are: compressing them costs more than it saves. */
export const COMPRESS_MIN_BYTES = 2048;
/** Bodies at least this large are compressed once, in the background, and the result kept. */
export const KEPT_MIN_BYTES = 64 * 1024;
/** How many large bodies' compressed forms are kept (the OpenAPI documents, Swagger UI's files …). */
export const KEPT_ENTRIES = 8;

const COMPRESSIBLE = /^(application\/([\w.+-]*json|javascript|xml)|text\/(?!event-stream))/i;
const ENCODINGS = ['br', 'gzip'];
// Levels for the kept forms: near the best ratio at a fraction of the best levels' time (brotli 11
// takes seconds on Swagger UI's 1.7 MB script; quality 5 a few hundred milliseconds).
const KEPT_BROTLI_QUALITY = 5;
const KEPT_GZIP_LEVEL = 6;

type Body = string | Uint8Array;
type Encoding = 'br' | 'gzip';
interface Kept {
  body: Body;
  br?: Buffer | Promise<void>;
  gzip?: Buffer | Promise<void>;
}

/**
 * Compression of answers when the client asks for it (`Accept-Encoding`): brotli when accepted,
 * else gzip; `Vary: Accept-Encoding` on every answer that could be compressed. Small answers
 * (< COMPRESS_MIN_BYTES) and answers already encoded, streamed (server-sent events, a faulted
 * body) or of a type that does not compress are left alone.
 *
 * A per-request answer is compressed on the spot at the fastest level (brotli quality 1 or gzip
 * level 1: tens of microseconds for a page of 25 customers). A large body the app answers again
 * and again (the OpenAPI documents, Swagger UI's script) is compressed once, off the event loop,
 * and kept: the answers sent meanwhile go out as they are. At most KEPT_ENTRIES bodies are kept,
 * each recognised by identity (the same string or buffer object), the oldest dropped first.
 *
 * Runs last, on the way out: the request inspector and the idempotency cache keep the answer as
 * the operation made it.
 */
export class Compression {
  private readonly kept: Kept[] = [];
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly minBytes = COMPRESS_MIN_BYTES) {}

  apply(a: Answer, acceptEncoding: string | undefined): Answer {
    const body = a.body;
    if (body === null || !(typeof body === 'string' || body instanceof Uint8Array)) return a;
    const size = typeof body === 'string' ? body.length : body.byteLength;
    if (size < this.minBytes) return a;
    const type = answerHeader(a.headers, 'content-type');
    if (
      type === undefined ||
      !COMPRESSIBLE.test(type) ||
      answerHeader(a.headers, 'content-encoding') !== undefined
    ) {
      return a;
    }
    const vary = answerHeader(a.headers, 'vary');
    const headers = vary === undefined ? a.headers.concat('Vary', 'Accept-Encoding') : a.headers.slice();
    const encoding = chosen(acceptEncoding);
    const compressed =
      encoding === undefined
        ? undefined
        : size >= KEPT_MIN_BYTES
          ? this.keptForm(body, encoding)
          : quick(body, encoding);
    if (compressed === undefined) return new Answer(a.status, headers, body, a.headed);
    headers.push('Content-Encoding', encoding as Encoding);
    return new Answer(a.status, headers, compressed, a.headed);
  }

  /** Resolves once every compression started in the background has finished (tests wait on it). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending);
  }

  /** A large body's kept compressed form; undefined while it is being made (the job is started). */
  private keptForm(body: Body, encoding: Encoding): Buffer | undefined {
    let entry = this.kept.find((k) => k.body === body);
    if (!entry) {
      entry = { body };
      this.kept.push(entry);
      if (this.kept.length > KEPT_ENTRIES) this.kept.shift();
    }
    const form = entry[encoding];
    if (form instanceof Buffer) return form;
    if (form === undefined) {
      const target = entry;
      const job = compressInBackground(body, encoding)
        .then((buffer) => {
          target[encoding] = buffer;
        })
        .catch(() => {
          // Never kept: the body keeps going out as it is.
          target[encoding] = undefined;
        })
        .finally(() => this.pending.delete(job));
      entry[encoding] = job;
      this.pending.add(job);
    }
    return undefined;
  }
}

function compressInBackground(body: Body, encoding: Encoding): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, result: Buffer) => (error ? reject(error) : resolve(result));
    if (encoding === 'gzip') gzip(body, { level: KEPT_GZIP_LEVEL }, done);
    else brotliCompress(body, { params: brotliParams(KEPT_BROTLI_QUALITY, body) }, done);
  });
}

function quick(body: Body, encoding: Encoding): Buffer {
  if (encoding === 'gzip') return gzipSync(body, { level: 1 });
  return brotliCompressSync(body, { params: brotliParams(1, body) });
}

function brotliParams(quality: number, body: Body): Record<number, number> {
  return {
    [constants.BROTLI_PARAM_QUALITY]: quality,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    [constants.BROTLI_PARAM_SIZE_HINT]: typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength,
  };
}

/** The encoding the client prefers among brotli and gzip (q-values honoured), or none. */
function chosen(acceptEncoding: string | undefined): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  // Negotiator 1.x breaks ties by `preferred`; its type declarations predate the option.
  const negotiator = new Negotiator({ headers: { 'accept-encoding': acceptEncoding } }) as unknown as {
    encoding(available: readonly string[], options: { preferred: readonly string[] }): string | undefined;
  };
  const best = negotiator.encoding(ENCODINGS, { preferred: ENCODINGS });
  return best === 'br' || best === 'gzip' ? best : undefined;
}
