import { Agent, request } from 'undici';
import { ipLiteral, isPublicAddress, NonPublicAddressError, publicOnlyLookup } from './public-address.js';

/** One signed POST to a receiver. The sender must give up when `signal` aborts (the timeout). */
export interface OutgoingWebhook {
  url: string;
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
}

/** What the dispatcher needs from a receiver's answer. */
export interface ReceiverAnswer {
  statusCode: number;
  retryAfter: string | null;
}

/** Sends one webhook; rejects on a connection error or abort. Injected so tests and benchmarks can swap it. */
export type WebhookSender = (webhook: OutgoingWebhook) => Promise<ReceiverAnswer>;

// Response bodies are not kept; reading more than this before closing is pointless.
const MAX_DRAINED_BYTES = 64 * 1024;

/**
 * The real sender: undici over its own connection pool (keep-alive, no redirects followed — a 3xx
 * is an answer like any other). Concurrency is bounded by the dispatcher, not here.
 */
export function createUndiciSender(options: { publicOnly?: boolean } = {}): {
  send: WebhookSender;
  close(): Promise<void>;
} {
  const agent = new Agent({
    connections: null,
    keepAliveTimeout: 4_000,
    ...(options.publicOnly ? { connect: { lookup: publicOnlyLookup } } : {}),
  });
  const send: WebhookSender = async ({ url, headers, body, signal }) => {
    if (options.publicOnly) {
      // An IP literal is connected to without a lookup: check it here.
      const host = new URL(url).hostname;
      const literal = ipLiteral(host);
      if (literal !== undefined && !isPublicAddress(literal)) throw new NonPublicAddressError(host, literal);
    }
    const res = await request(url, { method: 'POST', headers, body, signal, dispatcher: agent });
    await res.body.dump({ limit: MAX_DRAINED_BYTES, signal });
    const retryAfter = res.headers['retry-after'];
    return {
      statusCode: res.statusCode,
      retryAfter: Array.isArray(retryAfter) ? (retryAfter[0] ?? null) : (retryAfter ?? null),
    };
  };
  // destroy, not close: shutting down must not wait for a hanging receiver. An attempt cut off
  // here is recorded as failed and retried, or sent again after a restart.
  return { send, close: () => agent.destroy() };
}
