// The kit's webhook receiver: one HTTP server for the whole run, each check's endpoint a path of
// its own (`/hooks/<random>`). It keeps every delivery as it arrived (raw body and headers, for
// Standard Webhooks verification) and answers 200, as the spec asks of a receiving endpoint.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One delivery as the listener received it. */
export interface Delivery {
  /** Header names lower case. */
  headers: Record<string, string>;
  raw: string;
  /** The parsed body, or undefined when it was not JSON. */
  json: unknown;
  /** Arrival order across the whole listener. */
  seq: number;
  receivedAt: number;
}

type Collector = (delivery: Delivery) => void;

/** At most this much of one delivery is kept (a body this large is a departure of its own). */
const MAX_BODY_BYTES = 1024 * 1024;

export interface Listener {
  /** The base URL the target must call (`--webhook-public-url`, or the listening address). */
  readonly publicUrl: string;
  /** A new path and the function that receives what arrives on it. */
  route(collect: Collector): { url: string; close(): void };
  close(): Promise<void>;
}

/** Listens on `host:port` (port 0: an ephemeral one) and routes deliveries by path. */
export async function startListener(
  listen: { host: string; port: number },
  publicUrl?: string,
): Promise<Listener> {
  const routes = new Map<string, Collector>();
  let seq = 0;
  const server: Server = createServer((request, response) => {
    readBody(request)
      .then((raw) => {
        const path = (request.url ?? '/').split('?', 1)[0] as string;
        const collect = routes.get(path);
        if (request.method !== 'POST' || collect === undefined || raw === undefined) {
          response.writeHead(raw === undefined ? 413 : 404).end();
          return;
        }
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(request.headers)) {
          if (typeof value === 'string') headers[name] = value;
          else if (Array.isArray(value)) headers[name] = value.join(', ');
        }
        let json: unknown;
        try {
          json = JSON.parse(raw);
        } catch {
          json = undefined;
        }
        collect({ headers, raw, json, seq: seq++, receivedAt: Date.now() });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
      })
      .catch(() => response.writeHead(400).end());
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  // Listening on every interface: the URL the target is given names loopback (a remote target
  // needs --webhook-public-url anyway).
  const bound =
    address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  const host = address.family === 'IPv6' ? `[${bound}]` : bound;
  const base = (publicUrl ?? `http://${host}:${address.port}`).replace(/\/+$/, '');
  return {
    publicUrl: base,
    route(collect) {
      const path = `/hooks/${randomBytes(12).toString('hex')}`;
      routes.set(path, collect);
      return { url: `${base}${path}`, close: () => routes.delete(path) };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function readBody(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () =>
      resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString('utf8')),
    );
    request.on('error', reject);
  });
}

/** `host:port` (IPv6 in brackets) as given to `--webhook-listen`. */
export function parseListen(value: string): { host: string; port: number } | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+):(\d{1,5})$/.exec(value.trim());
  if (!match) return undefined;
  const port = Number(match[2]);
  if (port > 65535) return undefined;
  return { host: (match[1] as string).replace(/^\[|\]$/g, ''), port };
}
