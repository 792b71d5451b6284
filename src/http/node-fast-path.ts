import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'hono';

/**
 * Reads and writes headers on the hot path without building fetch `Headers` objects. Under the
 * Node adapter (`c.env` carries Node's `incoming` / `outgoing`), headers are read from the
 * IncomingMessage and written onto the ServerResponse, which merges them into the final head;
 * building a `Headers` object instead (what `c.req.header` / `c.header` do there) takes the
 * adapter off its fast path and costs about a third of the throughput of a small GET.
 * Elsewhere (`app.request()` in tests) the plain Hono calls are used.
 */
interface NodeBindings {
  incoming?: IncomingMessage;
  outgoing?: ServerResponse;
}

function bindings(c: Context): NodeBindings | undefined {
  return c.env as NodeBindings | undefined;
}

/** One request header by lower-case name. */
export function requestHeader(c: Context, name: string): string | undefined {
  const incoming = bindings(c)?.incoming;
  if (incoming?.headers) return headerValue(incoming.headers[name]);
  return c.req.header(name);
}

/**
 * Every request header by lower-case name, for reading several: Node's own object under the
 * Node adapter (no copy), else Hono's record.
 */
export function requestHeaders(c: Context): Readonly<Record<string, string | string[] | undefined>> {
  return bindings(c)?.incoming?.headers ?? c.req.header();
}

/** A value of `requestHeaders` as one string (repeated headers joined as HTTP joins them). */
export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Adds a header to whatever response this request ends with (errors included). */
export function addResponseHeader(c: Context, name: string, value: string): void {
  const outgoing = bindings(c)?.outgoing;
  if (outgoing && typeof outgoing.setHeader === 'function' && !outgoing.headersSent) {
    outgoing.setHeader(name, value);
    return;
  }
  c.header(name, value);
}

/** The raw query string (without `?`), or null; read from Node's request line when available. */
export function rawQuery(c: Context): string | null {
  const target = bindings(c)?.incoming?.url ?? c.req.url;
  const at = target.indexOf('?');
  return at < 0 || at === target.length - 1 ? null : target.slice(at + 1);
}

/** A response header already set for this request (Node's outgoing head, or the response). */
export function responseHeader(c: Context, name: string): string | undefined {
  const fromResponse = c.res.headers.get(name);
  if (fromResponse !== null) return fromResponse;
  const value = bindings(c)?.outgoing?.getHeader?.(name);
  return value === undefined ? undefined : String(value);
}

// @hono/node-server's lightweight Response keeps `[status, body, headers]` under a private symbol
// until something uses it as a real Response; reading the body there costs nothing, while
// `clone().text()` would turn it into a full Response and take the adapter off its fast path.
let cacheKey: symbol | undefined;

/**
 * The text of a response the handler built from a string, read without disturbing the response:
 * synchronously from the Node adapter's cache when it is there (the hot path), else a promise.
 */
export function responseText(res: Response): string | undefined | Promise<string | undefined> {
  cacheKey ??= Object.getOwnPropertySymbols(res).find((key) => key.description === 'cache');
  const cached = cacheKey ? (res as unknown as Record<symbol, unknown>)[cacheKey] : undefined;
  if (Array.isArray(cached) && typeof cached[1] === 'string') return cached[1];
  if (res.body === null) return undefined;
  return res.clone().text();
}
