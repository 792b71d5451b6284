import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CLIENT_ID, DEFAULT_CLIENT_SECRET } from '../../src/domain/default-partner.js';
import type { Contract } from '../../src/proxy/contract.js';
import { startProxy } from '../../src/proxy/proxy-server.js';
import { isWebhookLine, parseRecording, type RecordingLine } from '../../src/proxy/recording-format.js';
import { type Alteration, startAlteredUpstream } from './altered-upstream.js';
import { newPartner, runSession, type SessionResult, startAppReceiver, tokenFor } from './proxy-session.js';

export const DEFAULT_CREDENTIAL = { client_id: DEFAULT_CLIENT_ID, client_secret: DEFAULT_CLIENT_SECRET };

export interface RecordedSession {
  /** The recording file. */
  file: string;
  lines: RecordingLine[];
  /** The departure lines the proxy printed. */
  printed: string[];
  session: SessionResult;
}

/**
 * Records the application session (test/support/proxy-session.ts) through the validating proxy in
 * front of the sandbox at `sandboxOrigin` — or in front of an altered upstream in front of it — as a
 * new partner, with the webhooks through the proxy's relay. Returns once every event the partner's
 * log holds was delivered and recorded.
 */
export async function recordSession(
  sandboxOrigin: string,
  contract: Contract,
  alteration?: Alteration,
  cpf = '52998224725',
): Promise<RecordedSession> {
  const sandbox = `${sandboxOrigin}/v3`;
  const credential = await newPartner(sandbox, DEFAULT_CREDENTIAL);
  const altered = alteration ? await startAlteredUpstream(sandboxOrigin, alteration) : undefined;
  const receiver = await startAppReceiver();
  const file = join(mkdtempSync(join(tmpdir(), 'proxy-recording-')), 'session.ndjson');
  const printed: string[] = [];
  let webhooks = 0;
  let wanted = Number.POSITIVE_INFINITY;
  let allDelivered: () => void = () => {};
  const delivered = new Promise<void>((resolve) => {
    allDelivered = resolve;
  });
  const proxy = await startProxy({
    upstream: altered?.base ?? sandbox,
    contract,
    record: { file },
    webhookRelay: receiver.url,
    print: (line) => printed.push(line),
    onLine: (line) => {
      if (isWebhookLine(line)) webhooks++;
      if (webhooks >= wanted) allDelivered();
    },
  });
  try {
    const relayUrl = proxy.relayUrl!;
    const session = await runSession({
      apiBase: proxy.baseUrl,
      worldBase: sandbox,
      credential,
      hookUrl: altered ? altered.hookUrl(relayUrl) : relayUrl,
      cpf,
    });
    // Every event of the partner's log is delivered once (no chaos, the app answers 200).
    const token = await tokenFor(sandbox, credential);
    const events = await fetch(`${sandbox}/sandbox/events?limit=100`, {
      headers: { authorization: `Bearer ${token}` },
    });
    wanted = ((await events.json()) as { data: unknown[] }).data.length;
    if (webhooks >= wanted) allDelivered();
    await delivered;
    await proxy.close();
    return { file, lines: parseRecording(readFileSync(file, 'utf8'), file), printed, session };
  } finally {
    await proxy.close();
    await receiver.close();
    await altered?.close();
  }
}

/** Every departure of a recording, with the exchange (operation) or delivery (event type) it is on. */
export function departuresOf(
  lines: readonly RecordingLine[],
): Array<{ on: string; where: string; expected: string; actual: string }> {
  return lines.flatMap((line) =>
    line.departures.map((departure) => ({
      on: isWebhookLine(line) ? `webhook ${line.webhook.type}` : `${line.operation}`,
      ...departure,
    })),
  );
}
