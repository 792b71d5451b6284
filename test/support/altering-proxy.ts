// A test-only proxy in front of a sandbox that changes one behaviour at a time: what the
// conformance kit's own tests run it against (an "altered target"). With no alteration it passes
// everything through unchanged; `hideControl` makes the sandbox a black box (`/v3/sandbox/*`
// answers 404). Webhook endpoints are re-pointed at the proxy's relay, so deliveries can be
// altered on their way to the kit's listener too.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An answer on its way back to the client; change any part of it. */
export interface ProxiedAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface ProxiedRequest {
  method: string;
  /** Path and query as the client sent them (`/v3/customers?limit=2`). */
  url: string;
  headers: Record<string, string>;
  body: Buffer;
}

/** A delivery on its way from the sandbox to the kit's listener; return null to drop it. */
export interface RelayedDelivery {
  headers: Record<string, string>;
  body: string;
}

export interface Alteration {
  request?(request: ProxiedRequest): void;
  answer?(request: ProxiedRequest, answer: ProxiedAnswer): void;
  delivery?(delivery: RelayedDelivery): RelayedDelivery | null;
}

export interface AlteringProxy {
  /** The base URL ending in /v3. */
  url: string;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']);

function headersOf(message: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name))
      out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function readAll(message: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    message.on('data', (chunk: Buffer) => chunks.push(chunk));
    message.on('end', () => resolve(Buffer.concat(chunks)));
    message.on('error', reject);
  });
}

/** JSON body helpers for alterations. */
export function editJson(answer: ProxiedAnswer, edit: (body: Record<string, unknown>) => void): void {
  if (!answer.body) return;
  try {
    const body = JSON.parse(answer.body) as Record<string, unknown>;
    edit(body);
    answer.body = JSON.stringify(body);
  } catch {
    // not JSON: left alone
  }
}

export async function startAlteringProxy(
  upstream: string,
  options: { alteration?: Alteration; hideControl?: boolean } = {},
): Promise<AlteringProxy> {
  const alteration = options.alteration ?? {};
  const relays = new Map<string, string>();
  let base = '';
  const relayUrl = (target: string) => {
    const id = String(relays.size + 1);
    relays.set(id, target);
    return `${base}/relay/${id}`;
  };
  const server: Server = createServer((incoming, outgoing) => {
    void (async () => {
      const body = await readAll(incoming);
      const url = incoming.url ?? '/';
      if (url.startsWith('/relay/')) {
        const target = relays.get(url.slice('/relay/'.length));
        let delivery: RelayedDelivery | null = { headers: headersOf(incoming), body: body.toString('utf8') };
        delivery = alteration.delivery ? alteration.delivery(delivery) : delivery;
        if (!target || !delivery) {
          outgoing.writeHead(200).end();
          return;
        }
        const answer = await fetch(target, {
          method: 'POST',
          headers: delivery.headers,
          body: delivery.body,
        });
        outgoing.writeHead(answer.status).end(await answer.text());
        return;
      }
      if (options.hideControl && url.startsWith('/v3/sandbox/')) {
        outgoing.writeHead(404, { 'content-type': 'application/problem+json' });
        outgoing.end(
          JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404, detail: `No route ${url}` }),
        );
        return;
      }
      const request: ProxiedRequest = {
        method: incoming.method ?? 'GET',
        url,
        headers: headersOf(incoming),
        body,
      };
      alteration.request?.(request);
      const endpoints =
        /^\/v3\/webhooks\/endpoints(\/we_[0-9a-f]+)?(\?|$)/.test(url) &&
        (request.method === 'POST' || request.method === 'PATCH');
      if (endpoints && request.body.length > 0) {
        try {
          const json = JSON.parse(request.body.toString('utf8')) as Record<string, unknown>;
          if (typeof json.url === 'string') {
            json.url = relayUrl(json.url);
            request.body = Buffer.from(JSON.stringify(json));
          }
        } catch {
          // not JSON: forwarded as it is
        }
      }
      const forward = () =>
        fetch(`${upstream}${url}`, {
          method: request.method,
          headers: request.headers,
          body: request.method === 'GET' || request.method === 'HEAD' ? undefined : request.body,
          redirect: 'manual',
        });
      // A kept-alive connection the sandbox closed as the request went out (on a machine so busy
      // that timers fire seconds late) got no answer: sent once more, as a real proxy would.
      const answer = await forward().catch(() => forward());
      const proxied: ProxiedAnswer = { status: answer.status, headers: {}, body: await answer.text() };
      answer.headers.forEach((value, name) => {
        if (!HOP_BY_HOP.has(name) && name !== 'content-encoding') proxied.headers[name] = value;
      });
      // The client sees the URLs it sent, never the relay's.
      if (proxied.body.includes('/relay/')) {
        proxied.body = proxied.body.replace(
          /"url":"([^"]*\/relay\/(\d+))"/g,
          (whole, _relay: string, id: string) => {
            const original = relays.get(id);
            return original === undefined ? whole : `"url":${JSON.stringify(original)}`;
          },
        );
      }
      alteration.answer?.(request, proxied);
      outgoing.writeHead(proxied.status, proxied.headers).end(proxied.body);
    })().catch((error: unknown) => {
      outgoing.writeHead(502, { 'content-type': 'text/plain' }).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
  return {
    url: `${base}/v3`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
