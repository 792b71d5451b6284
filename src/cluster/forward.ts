import { Agent, fetch as undiciFetch } from 'undici';

/** Set on a request one instance forwards to another, so it is never forwarded twice. */
export const FORWARDED_HEADER = 'x-credit-sandbox-forwarded-by';

// Hop-by-hop headers, and those the client recomputes from the body it sends or receives.
const DROPPED_REQUEST = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'upgrade',
]);
const DROPPED_RESPONSE = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-encoding',
]);

/** The owner refused the connection: nothing was sent, so trying again elsewhere is safe. */
export class OwnerUnreachableError extends Error {
  constructor(url: string) {
    super(`instance ${url} refused the connection`);
    this.name = 'OwnerUnreachableError';
  }
}

/** Forwards requests to the instance that owns their partner, over kept-alive connections. */
export class Forwarder {
  private readonly agent = new Agent({ keepAliveTimeout: 10_000, connections: 64 });

  constructor(private readonly instanceId: string) {}

  /**
   * Sends the request to `ownerUrl` (same method, path, query, headers and body) and returns its
   * response as is. Throws OwnerUnreachableError when the connection is refused.
   */
  async forward(request: Request, ownerUrl: string): Promise<Response> {
    const source = new URL(request.url);
    const target = `${ownerUrl.replace(/\/$/, '')}${source.pathname}${source.search}`;
    const headers: [string, string][] = [];
    request.headers.forEach((value, name) => {
      if (!DROPPED_REQUEST.has(name)) headers.push([name, value]);
    });
    headers.push([FORWARDED_HEADER, this.instanceId]);
    const body =
      request.method === 'GET' || request.method === 'HEAD'
        ? undefined
        : Buffer.from(await request.arrayBuffer());
    let response: Awaited<ReturnType<typeof undiciFetch>>;
    try {
      response = await undiciFetch(target, {
        method: request.method,
        headers,
        body,
        redirect: 'manual',
        dispatcher: this.agent,
      });
    } catch (error) {
      if (refused(error)) throw new OwnerUnreachableError(ownerUrl);
      throw error;
    }
    const out = new Headers();
    response.headers.forEach((value, name) => {
      if (!DROPPED_RESPONSE.has(name)) out.append(name, value);
    });
    const payload = await response.arrayBuffer();
    return new Response(request.method === 'HEAD' ? null : payload, {
      status: response.status,
      headers: out,
    });
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

function refused(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } }).cause;
  return cause?.code === 'ECONNREFUSED';
}
