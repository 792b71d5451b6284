import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import { BodyCopy, parseBody } from './body-copy.js';
import type { Contract } from './contract.js';
import { type Departure, schemaDeparture } from './departures.js';
import { headerRecord } from './forward.js';
import type { RelayedDelivery } from './recording-lines.js';
import { verifySignature } from './webhook-signature.js';

/** Webhook bodies are read whole (they are small); past this the relay refuses with 413. */
export const MAX_WEBHOOK_BYTES = 4 * 1024 * 1024;

export interface RelayOptions {
  contract: Contract;
  /** The app's webhook URL: each delivery goes there unchanged. */
  target: URL;
  dispatcher: Dispatcher;
  /** Secrets the deliveries may be signed with: `--webhook-secret`s, then those learned from answers. */
  secrets(): readonly string[];
  timeoutMs: number;
  done(delivery: RelayedDelivery, departures: Departure[], notes: string[]): void;
}

const NOT_RELAYED = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'expect',
]);

/**
 * One delivery through the relay: read it, verify its Standard Webhooks signature against the known
 * secrets, validate its payload against the schema the document's `webhooks` give its `type`,
 * forward it (headers and body bytes unchanged) to the app, and answer the upstream with the app's
 * status, headers and body, so the upstream's retries see what the app did.
 */
export async function relay(req: IncomingMessage, res: ServerResponse, options: RelayOptions): Promise<void> {
  const startedAt = Date.now();
  const started = performance.now();
  const copy = new BodyCopy(MAX_WEBHOOK_BYTES);
  for await (const chunk of req) copy.add(chunk as Buffer);
  const body = copy.result();
  if (body.bytes === undefined) {
    res.writeHead(413, { 'content-type': 'text/plain' }).end(`webhook body over ${MAX_WEBHOOK_BYTES} bytes`);
    return;
  }
  const headers = headerRecord(req.rawHeaders);
  const departures: Departure[] = [];
  const notes: string[] = [];
  const secrets = options.secrets();
  const verdict = verifySignature(secrets, headers, body.bytes, Date.now());
  let signature: RelayedDelivery['signature'] = verdict.valid ? 'valid' : 'invalid';
  if (!verdict.valid && secrets.length === 0 && headers['webhook-signature']) {
    signature = 'unverified';
    notes.push(`signature not verified: ${verdict.reason}`);
  } else if (!verdict.valid) {
    departures.push({
      where: 'webhook signature',
      expected: 'a valid Standard Webhooks v1 signature',
      actual: verdict.reason,
    });
  }
  const parsed = await parseBody(body, headers['content-type'] ?? 'application/json');
  const payload = parsed.kind === 'json' ? parsed.value : undefined;
  const type =
    typeof payload === 'object' &&
    payload !== null &&
    typeof (payload as { type?: unknown }).type === 'string'
      ? (payload as { type: string }).type
      : null;
  const pointer = type === null ? undefined : options.contract.webhookTypes.get(type);
  if (payload === undefined) {
    const actual =
      parsed.kind === 'invalid'
        ? parsed.reason
        : parsed.kind === 'too-deep'
          ? 'nests deeper than 64 levels'
          : 'no body';
    departures.push({ where: 'webhook.body', expected: 'a JSON event {type, timestamp, data}', actual });
  } else if (pointer === undefined) {
    departures.push({
      where: 'webhook type',
      expected: `one of the document's webhooks (${[...options.contract.webhookTypes.keys()].length} event types)`,
      actual: type === null ? 'no type' : JSON.stringify(type),
    });
  } else {
    for (const failure of options.contract.check(pointer, payload))
      departures.push(schemaDeparture('webhook.body', failure));
  }

  const forwardHeaders: string[] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    if (!NOT_RELAYED.has(req.rawHeaders[i]!.toLowerCase()))
      forwardHeaders.push(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  }
  let answer = { status: 502, bodyBytes: 0 };
  try {
    const reply = await options.dispatcher.request({
      origin: options.target.origin,
      path: `${options.target.pathname}${options.target.search}`,
      method: 'POST',
      headers: forwardHeaders,
      body: body.bytes,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
    const replyBody = Buffer.from(await reply.body.arrayBuffer());
    const replyHeaders: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(reply.headers)) {
      if (value !== undefined && !NOT_RELAYED.has(name)) replyHeaders[name] = value;
    }
    res.sendDate = false;
    res.writeHead(reply.statusCode, replyHeaders).end(replyBody);
    answer = { status: reply.statusCode, bodyBytes: replyBody.length };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    notes.push(
      `the app at ${options.target.href} did not answer: ${reason}; the upstream got 502 and will retry`,
    );
    res
      .writeHead(502, { 'content-type': 'text/plain' })
      .end(`credit-sandbox proxy: the app did not answer: ${reason}`);
  }
  options.done(
    {
      startedAt,
      ms: performance.now() - started,
      headers,
      body: parsed,
      bodyBytes: body.size,
      type,
      signature,
      answer,
    },
    departures,
    notes,
  );
}
