import { Readable } from 'node:stream';
import { Agent } from 'undici';

/** Set on a request one instance forwards to another, so it is never forwarded twice. */
export const FORWARDED_HEADER = 'x-credit-sandbox-forwarded-by';
/** On the answer of an instance that got a forwarded request for a partner it does not own. */
export const NOT_OWNER_HEADER = 'x-credit-sandbox-not-owner';

// Hop-by-hop headers, and those the client recomputes from the body it sends or receives.
const DROPPED_REQUEST = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'upgrade',
]);
// The body is passed on as the owner encoded it (undici does not decompress), so its
// content-encoding stays (the dashboard's pages are compressed).
const DROPPED_RESPONSE = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length']);

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/** Instances talk over a private network: a live owner accepts a connection well within this. */
const CONNECT_TIMEOUT_MS = 2_000;
/** Errors of a connection that was never made: nothing was sent, so sending again is safe. */
const NOT_CONNECTED = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** The owner refused the connection: nothing was sent, so trying again elsewhere is safe. */
export class OwnerUnreachableError extends Error {
  constructor(url: string) {
    super(`instance ${url} refused the connection`);
    this.name = 'OwnerUnreachableError';
  }
}

/**
 * The body of a request to forward, read once through Hono's body cache: a retry can send it
 * again, and if the request ends up handled here after all, the app reads it from that cache.
 */
export async function forwardedBody(request: {
  method: string;
  arrayBuffer(): Promise<ArrayBuffer>;
}): Promise<Buffer | undefined> {
  if (request.method === 'GET' || request.method === 'HEAD') return undefined;
  return Buffer.from(await request.arrayBuffer());
}

/** Forwards requests to the instance that owns their partner, over kept-alive connections. */
export class Forwarder {
  // 16 kept-alive connections per owner: under --hosted's per-client cap (32) on the owner.
  // A dead owner's address may not answer at all (a removed container): give up connecting after
  // CONNECT_TIMEOUT_MS instead of undici's 10 s, so the request waits for the takeover instead.
  private readonly agent = new Agent({
    keepAliveTimeout: 10_000,
    connections: 16,
    connect: { timeout: CONNECT_TIMEOUT_MS },
  });

  constructor(private readonly instanceId: string) {}

  /**
   * Sends the request to `ownerUrl` (same method, path, query and headers; `body` read once by
   * the caller, so a retry can send it again) and returns the response as is. Throws
   * OwnerUnreachableError when the connection is refused.
   */
  async forward(request: Request, ownerUrl: string, body: Buffer | undefined): Promise<Response> {
    const source = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      if (!DROPPED_REQUEST.has(name)) headers[name] = value;
    });
    headers[FORWARDED_HEADER] = this.instanceId;
    let answer: Awaited<ReturnType<Agent['request']>>;
    try {
      // undici's request API, not fetch: a third of the cost per call on this hot path.
      answer = await this.agent.request({
        origin: ownerUrl,
        path: `${source.pathname}${source.search}`,
        method: request.method as 'GET',
        headers,
        body,
      });
    } catch (error) {
      if (refused(error)) throw new OwnerUnreachableError(ownerUrl);
      throw error;
    }
    const out = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined || DROPPED_RESPONSE.has(name)) continue;
      for (const v of Array.isArray(value) ? value : [value]) out.append(name, v);
    }
    if (String(answer.headers['content-type'] ?? '').startsWith('text/event-stream')) {
      // A live stream (the dashboard's events) is passed on as it comes: when the client goes, the
      // upstream connection is closed; when the owner dies, the client's stream breaks and its
      // EventSource reconnects (with Last-Event-ID) to whichever instance serves the partner then.
      const stream = Readable.toWeb(answer.body) as ReadableStream<Uint8Array>;
      return new Response(stream, { status: answer.statusCode, headers: out });
    }
    const payload = await answer.body.arrayBuffer();
    // A null-body status (204 of a DELETE, 304) cannot be given a body, not even an empty one.
    const noBody = request.method === 'HEAD' || NULL_BODY_STATUSES.has(answer.statusCode);
    return new Response(noBody ? null : payload, {
      status: answer.statusCode,
      headers: out,
    });
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

function refused(error: unknown): boolean {
  const { code, cause } = error as { code?: string; cause?: { code?: string } };
  return NOT_CONNECTED.has(code ?? '') || NOT_CONNECTED.has(cause?.code ?? '');
}
