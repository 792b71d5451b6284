import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { checkWebhookBody, warmWebhookSchemas } from './webhook-schema.js';

/** One request the receiver got. */
export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
}

/**
 * How the receiver answers the n-th request (0-based): `hangMs` delays the answer by real time;
 * `until` holds it until the promise settles (`NEVER`: not before the receiver closes), so a test
 * decides when the answer comes instead of racing a clock.
 */
export interface ReceiverReply {
  status: number;
  headers?: Record<string, string>;
  hangMs?: number;
  until?: Promise<unknown>;
}

/** A receiver reply held by `until: NEVER` is never answered (its connection ends at close). */
export const NEVER: Promise<never> = new Promise(() => {});

/** A gate a test opens when it is ready: `until: gate.opened` answers then. */
export function gate(): { opened: Promise<void>; open(): void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}
export type Responder = (request: ReceivedWebhook, n: number) => ReceiverReply;

export interface Receiver {
  url: string;
  received: ReceivedWebhook[];
  respond: Responder;
  /** Resolves once `count` requests have arrived (an event to wait for, never a sleep). */
  arrived(count?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real HTTP receiver on 127.0.0.1 (port 0) that records every request and answers as told. Each
 * body is validated against the document's `webhooks` schema (a mismatch fails the test).
 */
export async function startReceiver(respond: Responder = () => ({ status: 200 })): Promise<Receiver> {
  warmWebhookSchemas();
  const received: ReceivedWebhook[] = [];
  const waiting: { count: number; resolve: () => void }[] = [];
  const arrived = (count = 1) =>
    received.length >= count
      ? Promise.resolve()
      : new Promise<void>((resolve) => waiting.push({ count, resolve }));
  const receiver: Receiver = { url: '', received, respond, arrived, close: async () => {} };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { headers: flatHeaders(req.headers), body: Buffer.concat(chunks).toString('utf8') };
      checkWebhookBody(request.body);
      const reply = receiver.respond(request, received.length);
      received.push(request);
      for (const w of waiting.filter((w) => received.length >= w.count)) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve();
      }
      const answer = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status, reply.headers ?? {});
        res.end('ok');
      };
      if (reply.until) void reply.until.then(answer);
      else if (reply.hangMs) setTimeout(answer, reply.hangMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

function flatHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** How three independent verifiers judge one delivery against one secret. */
export interface Verdicts {
  standardwebhooks: boolean;
  svix: boolean;
  /** Our own check from the Standard Webhooks spec text, with node:crypto only. */
  manual: boolean;
}

export function verify(secret: string, request: ReceivedWebhook): Verdicts {
  const attempt = (fn: () => unknown) => {
    try {
      fn();
      return true;
    } catch {
      return false;
    }
  };
  return {
    standardwebhooks: attempt(() => new StandardWebhook(secret).verify(request.body, request.headers)),
    svix: attempt(() => new SvixWebhook(secret).verify(request.body, request.headers)),
    manual: manualVerify(secret, request),
  };
}

// svix's verifier delegates to its own copy of standardwebhooks, so a third check computes the
// HMAC from the spec: base64(HMAC-SHA256(base64decode(secret without whsec_), "id.timestamp.body")).
function manualVerify(secret: string, request: ReceivedWebhook): boolean {
  const id = request.headers['webhook-id'];
  const timestamp = request.headers['webhook-timestamp'];
  const signatures = request.headers['webhook-signature'];
  if (!id || !timestamp || !signatures) return false;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = Buffer.from(
    createHmac('sha256', key).update(`${id}.${timestamp}.${request.body}`).digest('base64'),
  );
  return signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',');
    const given = Buffer.from(signature ?? '');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}
