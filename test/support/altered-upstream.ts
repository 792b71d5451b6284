import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Test-only altered upstreams for the validating proxy and replay: an HTTP server in front of a real
 * sandbox that passes everything through but changes one behaviour on one exchange, as a staging
 * with a bug would. API alterations change an answer; webhook alterations change a delivery on its
 * way from the sandbox to the proxy's relay (register `hookUrl(relay)` as the endpoint URL).
 */
export type Alteration =
  /** `external_id` renamed `externalId` in the answer to POST /customers. */
  | 'renamed-field'
  /** POST /credit-offers/{id}/simulations answers 200, which the operation does not declare. */
  | 'undeclared-status'
  /** POST /loans answers 201 without the `Location` header the contract requires. */
  | 'missing-location'
  /** The customer.active delivery is signed with a secret that is not the endpoint's. */
  | 'wrong-signature'
  /** The loan.active delivery's `data.status` is "activated", outside the event schema's enum (re-signed). */
  | 'broken-payload';

export interface AlteredUpstream {
  /** `http://127.0.0.1:PORT/v3`: give it to the proxy as its upstream. */
  base: string;
  /** The URL to register as the webhook endpoint: deliveries pass here, then go to `target`. */
  hookUrl(target: string): string;
  close(): Promise<void>;
}

// fetch hands over answers already decoded, so their Content-Encoding does not go on with them.
const DROPPED = new Set([
  'host',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'content-encoding',
]);

async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && !DROPPED.has(name))
      out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function sign(secret: string, id: string, timestamp: string, body: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

export async function startAlteredUpstream(
  sandboxOrigin: string,
  alteration: Alteration,
): Promise<AlteredUpstream> {
  let endpointSecret: string | undefined;
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readAll(req);
      const url = new URL(req.url ?? '/', 'http://altered.test');
      if (url.pathname === '/__hooks') {
        const target = url.searchParams.get('to') ?? '';
        const headers = headersOf(req);
        let text = body.toString('utf8');
        const event = JSON.parse(text) as { type: string; data: Record<string, unknown> };
        if (alteration === 'wrong-signature' && event.type === 'customer.active') {
          headers['webhook-signature'] = sign(
            `whsec_${randomBytes(24).toString('base64')}`,
            headers['webhook-id']!,
            headers['webhook-timestamp']!,
            text,
          );
        }
        if (alteration === 'broken-payload' && event.type === 'loan.active' && endpointSecret) {
          text = JSON.stringify({ ...event, data: { ...event.data, status: 'activated' } });
          headers['webhook-signature'] = sign(
            endpointSecret,
            headers['webhook-id']!,
            headers['webhook-timestamp']!,
            text,
          );
        }
        const answer = await fetch(target, { method: 'POST', headers, body: text });
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
        res.end(Buffer.from(await answer.arrayBuffer()));
        return;
      }
      const method = req.method ?? 'GET';
      const answer = await fetch(`${sandboxOrigin}${req.url}`, {
        method,
        headers: headersOf(req),
        ...(body.length > 0 && { body }),
      });
      let status = answer.status;
      const headers: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!DROPPED.has(name)) headers[name] = value;
      });
      let out = Buffer.from(await answer.arrayBuffer());
      const path = url.pathname;
      if (method === 'POST' && path === '/v3/webhooks/endpoints' && status === 201) {
        endpointSecret = (JSON.parse(out.toString('utf8')) as { secret: string }).secret;
      }
      if (alteration === 'renamed-field' && method === 'POST' && path === '/v3/customers' && status === 201) {
        const { external_id, ...rest } = JSON.parse(out.toString('utf8')) as Record<string, unknown>;
        out = Buffer.from(JSON.stringify({ ...rest, externalId: external_id }));
      }
      if (
        alteration === 'undeclared-status' &&
        method === 'POST' &&
        /^\/v3\/credit-offers\/[^/]+\/simulations$/.test(path) &&
        status === 201
      ) {
        status = 200;
      }
      if (alteration === 'missing-location' && method === 'POST' && path === '/v3/loans' && status === 201) {
        delete headers.location;
      }
      res.writeHead(status, { ...headers, 'content-length': String(out.length) });
      res.end(out);
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base: `${origin}/v3`,
    hookUrl: (target) => `${origin}/__hooks?to=${encodeURIComponent(target)}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
