import type { IncomingMessage } from 'node:http';
import { bodyTooLarge } from '../spec-status-table.js';

/** Largest request body accepted anywhere; endpoints may set lower limits of their own. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** The part of a fetch `Headers` the operations read. */
export interface HeaderReader {
  get(name: string): string | null;
  has(name: string): boolean;
  forEach(callback: (value: string, name: string) => void): void;
}

const UTF8 = new TextDecoder();
const EMPTY = new Uint8Array(0);

/**
 * The request as the operations see it (`c.req.raw`): the members of a fetch `Request` the app
 * reads, over either transport. The body is read once, whole, and refused past MAX_BODY_BYTES
 * with the endpoint's own 413 (or its table's status) while it arrives, whichever reader asks
 * first: the text checks, the validator or the handler.
 */
export abstract class RequestFacts {
  abstract readonly method: string;
  abstract readonly url: string;
  abstract readonly headers: HeaderReader;
  abstract readonly signal: AbortSignal;
  /** The path the limit's refusal names (Hono's path of the request). */
  abstract readonly path: string;
  /** The query string as sent, without `?` (empty when there is none). */
  abstract readonly query: string;
  /** The request target as sent: path and query, still percent-encoded. */
  abstract readonly target: string;
  #bytes: Promise<Uint8Array> | undefined;
  /** Whether anything read the body (the request log records only a body that was read). */
  bodyRead = false;
  /** The body as text, once something read it as text (what the request log keeps). */
  textRead: string | undefined;
  /**
   * `JSON.parse(textRead)`, once the body's check parsed it (the request log keeps it redacted
   * without parsing the text again). Never changed by anyone: the handler reads the schema's copy.
   */
  jsonRead: unknown;
  /** The body's length once read. */
  bytesRead = 0;

  /** One request header by lower-case name. */
  abstract header(name: string): string | undefined;

  protected abstract readAll(limit: number): Promise<Uint8Array>;

  /** The whole body (empty for GET and HEAD), read once. */
  bytes(): Promise<Uint8Array> {
    this.bodyRead = true;
    if (this.method === 'GET' || this.method === 'HEAD') return Promise.resolve(EMPTY);
    this.#bytes ??= this.readAll(MAX_BODY_BYTES).then((bytes) => {
      this.bytesRead = bytes.byteLength;
      return bytes;
    });
    return this.#bytes;
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    return this.bytes().then((b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer);
  }

  text(): Promise<string> {
    return this.bytes().then((b) => {
      this.textRead ??= UTF8.decode(b);
      return this.textRead;
    });
  }

  json(): Promise<unknown> {
    return this.text().then((t) => JSON.parse(t));
  }

  /** A refusal of a body over the limit, with the status the endpoint's table row allows. */
  protected tooLarge(limit: number): Error {
    return bodyTooLarge(this.method, this.path, limit);
  }

  /** A body declared longer than the limit, refused before a byte of it is read. */
  declaredTooLarge(): Error | undefined {
    const declared = Number(this.header('content-length'));
    return declared > MAX_BODY_BYTES ? this.tooLarge(MAX_BODY_BYTES) : undefined;
  }
}

/** A value of Node's header object as one string (repeated headers joined as HTTP joins them). */
export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** A request arriving on Node's HTTP server, read straight from its IncomingMessage. */
export class NodeRequestFacts extends RequestFacts {
  #url: string | undefined;
  #signal: AbortController | undefined;
  readonly query: string;
  readonly target: string;

  constructor(
    readonly incoming: IncomingMessage,
    readonly method: string,
    readonly path: string,
  ) {
    super();
    this.target = incoming.url ?? '/';
    this.query = queryOf(this.target);
  }

  get url(): string {
    this.#url ??= `http://${this.incoming.headers.host ?? 'localhost'}${this.incoming.url ?? '/'}`;
    return this.#url;
  }

  get signal(): AbortSignal {
    if (!this.#signal) {
      const controller = new AbortController();
      const socket = this.incoming.socket;
      if (socket.destroyed) controller.abort();
      else socket.once('close', () => controller.abort());
      this.#signal = controller;
    }
    return this.#signal.signal;
  }

  header(name: string): string | undefined {
    return headerValue(this.incoming.headers[name]);
  }

  #headers: HeaderReader | undefined;

  get headers(): HeaderReader {
    const incoming = this.incoming.headers;
    this.#headers ??= {
      get: (name) => headerValue(incoming[name.toLowerCase()]) ?? null,
      has: (name) => incoming[name.toLowerCase()] !== undefined,
      forEach: (callback) => {
        for (const [name, value] of Object.entries(incoming)) {
          const text = headerValue(value);
          if (text !== undefined) callback(text, name);
        }
      },
    };
    return this.#headers;
  }

  protected readAll(limit: number): Promise<Uint8Array> {
    const req = this.incoming;
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        req.off('data', onData);
        req.off('end', onEnd);
        req.off('error', onError);
        req.off('close', onClose);
      };
      const onData = (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) {
          done();
          req.pause();
          reject(this.tooLarge(limit));
          return;
        }
        chunks.push(chunk);
      };
      const onEnd = () => {
        done();
        resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
      };
      const onError = (error: Error) => {
        done();
        reject(error);
      };
      const onClose = () => {
        if (req.complete) return;
        done();
        reject(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
      };
      if (req.readableEnded) {
        resolve(EMPTY);
        return;
      }
      req.on('data', onData);
      req.on('end', onEnd);
      req.on('error', onError);
      req.on('close', onClose);
    });
  }
}

/** A fetch Request (in-process calls, `app.request` in tests, requests the Node entry passes on). */
export class FetchRequestFacts extends RequestFacts {
  readonly method: string;
  readonly url: string;
  readonly query: string;
  readonly target: string;
  readonly headers: HeaderReader;
  readonly signal: AbortSignal;

  constructor(
    readonly request: Request,
    readonly path: string,
    /**
     * Hono's body cache of the request: in shared mode the cluster gate reads a body it may
     * forward through it (`arrayBuffer`), and a request handled here after all is read from there.
     */
    private readonly bodyCache: { arrayBuffer?: Promise<ArrayBuffer> | ArrayBuffer } = {},
  ) {
    super();
    this.method = request.method;
    this.url = request.url;
    this.query = queryOf(request.url);
    const origin = request.url.indexOf('/', request.url.indexOf(':') + 3);
    this.target = origin < 0 ? '/' : request.url.slice(origin);
    this.headers = request.headers;
    this.signal = request.signal;
  }

  header(name: string): string | undefined {
    return this.request.headers.get(name) ?? undefined;
  }

  protected async readAll(limit: number): Promise<Uint8Array> {
    const cached = this.bodyCache.arrayBuffer;
    if (cached !== undefined) {
      const bytes = new Uint8Array(await cached);
      if (bytes.byteLength > limit) throw this.tooLarge(limit);
      return bytes;
    }
    const body = this.request.body;
    if (body === null) return EMPTY;
    const reader = body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        throw this.tooLarge(limit);
      }
      chunks.push(value);
    }
    return chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks, size);
  }
}

/** The query string of a URL or request target, without `?` and without a fragment. */
function queryOf(target: string): string {
  const at = target.indexOf('?');
  if (at < 0) return '';
  const hash = target.indexOf('#', at);
  return target.slice(at + 1, hash < 0 ? undefined : hash);
}

/** Decodes bytes as `Request.text()` does (UTF-8, a leading byte-order mark dropped, bad bytes replaced). */
export function decodeText(bytes: Uint8Array): string {
  return UTF8.decode(bytes);
}
