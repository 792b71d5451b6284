import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import Negotiator from 'negotiator';
import { Answer, answerHeader } from './answer.js';

/** Answers smaller than this are sent as they are: compressing them costs more than it saves. */
export const COMPRESS_MIN_BYTES = 2048;
/** Bodies at least this large are compressed once at the best level and the result kept. */
export const KEPT_MIN_BYTES = 64 * 1024;
/** How many large bodies' compressed forms are kept (the OpenAPI document, the docs' script …). */
export const KEPT_ENTRIES = 8;

const COMPRESSIBLE = /^(application\/([\w.+-]*json|javascript|xml)|text\/(?!event-stream))/i;
const ENCODINGS = ['br', 'gzip'];

type Body = string | Uint8Array;
interface Kept {
  body: Body;
  br?: Buffer;
  gzip?: Buffer;
}

/**
 * Compression of answers when the client asks for it (`Accept-Encoding`): brotli when accepted,
 * else gzip; `Vary: Accept-Encoding` on every answer that could be compressed. Small answers
 * (< COMPRESS_MIN_BYTES) and answers already encoded, streamed (server-sent events, a faulted
 * body) or of a type that does not compress are left alone. A per-request answer is compressed
 * at the fastest level (brotli quality 1 or gzip level 1: tens of microseconds for a page of 25
 * customers); a large body the app answers again and again (the OpenAPI document, Swagger UI's
 * script) is compressed once at the best level and kept: at most KEPT_ENTRIES bodies, each
 * recognised by identity (the same string or buffer object), the oldest dropped first.
 *
 * Runs last, on the way out: the request inspector and the idempotency cache keep the answer as
 * the operation made it.
 */
export class Compression {
  private readonly kept: Kept[] = [];

  constructor(private readonly minBytes = COMPRESS_MIN_BYTES) {}

  apply(a: Answer, acceptEncoding: string | undefined, _method?: string): Answer {
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
    if (encoding === undefined) return new Answer(a.status, headers, body, a.headed);
    const compressed = size >= KEPT_MIN_BYTES ? this.keptForm(body, encoding) : quick(body, encoding);
    headers.push('Content-Encoding', encoding);
    return new Answer(a.status, headers, compressed, a.headed);
  }

  /** A large body compressed at the best level, once per body (and encoding). */
  private keptForm(body: Body, encoding: 'br' | 'gzip'): Buffer {
    let entry = this.kept.find((k) => k.body === body);
    if (!entry) {
      entry = { body };
      this.kept.push(entry);
      if (this.kept.length > KEPT_ENTRIES) this.kept.shift();
    }
    if (encoding === 'br') {
      entry.br ??= brotliCompressSync(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 11,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: byteLength(body),
        },
      });
      return entry.br;
    }
    entry.gzip ??= gzipSync(body, { level: 9 });
    return entry.gzip;
  }
}

function quick(body: Body, encoding: 'br' | 'gzip'): Buffer {
  if (encoding === 'gzip') return gzipSync(body, { level: 1 });
  return brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 1,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: byteLength(body),
    },
  });
}

function byteLength(body: Body): number {
  return typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
}

/** The encoding the client prefers among brotli and gzip (q-values honoured), or none. */
function chosen(acceptEncoding: string | undefined): 'br' | 'gzip' | undefined {
  if (!acceptEncoding) return undefined;
  // Negotiator 1.x breaks ties by `preferred`; its type declarations predate the option.
  const negotiator = new Negotiator({ headers: { 'accept-encoding': acceptEncoding } }) as unknown as {
    encoding(available: readonly string[], options: { preferred: readonly string[] }): string | undefined;
  };
  const best = negotiator.encoding(ENCODINGS, { preferred: ENCODINGS });
  return best === 'br' || best === 'gzip' ? best : undefined;
}
