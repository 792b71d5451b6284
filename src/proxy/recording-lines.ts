import {
  type JsonValue,
  redact,
  redactHeaders,
  redactTarget,
  redactText,
  redactValues,
} from '../lib/redact.js';
import type { ParsedBody } from './body-copy.js';
import type { Departure } from './departures.js';
import type { CapturedExchange } from './forward.js';
import {
  type ExchangeLine,
  RECORDING_FORMAT,
  RECORDING_VERSION,
  type RecordedDeparture,
  type WebhookLine,
} from './recording-format.js';

/**
 * Recording lines built from what went through, secrets redacted with the inspector's rules
 * (`lib/redact.ts`): body keys and form fields named like secrets, values in the sandbox's secret
 * formats (`svc_cs_…`, `svc_at_…`, `whsec_…`) anywhere, `Authorization` down to its scheme, secret
 * query parameters and secret-named headers. A departure's text is redacted too (it may quote a value).
 */

/** A body as a recording keeps it: JSON and form fields as values, text as text, the rest as null. */
export function recordedBody(parsed: ParsedBody): JsonValue {
  switch (parsed.kind) {
    case 'json':
    case 'form':
      return redact(parsed.value);
    case 'multipart':
      return null;
    case 'text':
      return redactText(parsed.text);
    default:
      return null;
  }
}

/** Why a body is not in the recording, when it is not. */
export function bodyNote(side: 'request' | 'response', parsed: ParsedBody): string | undefined {
  if (parsed.kind === 'binary') return `${side} body: ${parsed.size} bytes of binary data, not recorded`;
  if (parsed.kind === 'too-large')
    return `${side} body: ${parsed.size} bytes, over the validation limit, not recorded`;
  if (parsed.kind === 'invalid') return `${side} body: ${parsed.reason}, not recorded`;
  if (parsed.kind === 'too-deep') return `${side} body: nests deeper than 64 levels, not recorded`;
  return undefined;
}

function redactDepartures(departures: readonly Departure[]): RecordedDeparture[] {
  return departures.map((d) => ({
    where: d.where,
    expected: redactValues(d.expected),
    actual: redactValues(d.actual),
  }));
}

export function exchangeLine(
  exchange: CapturedExchange,
  operation: string | null,
  request: ParsedBody,
  response: ParsedBody,
  departures: readonly Departure[],
  notes: readonly string[],
): ExchangeLine {
  const allNotes = [...notes, bodyNote('request', request), bodyNote('response', response)].filter(
    (note): note is string => note !== undefined,
  );
  const line: ExchangeLine = {
    format: RECORDING_FORMAT,
    version: RECORDING_VERSION,
    at: new Date(exchange.startedAt).toISOString(),
    operation,
    request: {
      method: exchange.method,
      path: redactTarget(exchange.target),
      headers: redactHeaders(exchange.requestHeaders),
      body: recordedBody(request),
      body_bytes: exchange.requestBody.size,
      ...(request.kind === 'multipart' && {
        form: { fields: redact(request.fields) as Record<string, string>, files: request.files },
      }),
    },
    response: {
      status: exchange.status,
      headers: redactHeaders(exchange.responseHeaders),
      body: recordedBody(response),
      body_bytes: exchange.responseBody.size,
    },
    ms: Math.round(exchange.ms * 1000) / 1000,
    departures: redactDepartures(departures),
    ...(allNotes.length > 0 && { notes: allNotes }),
    ...(exchange.error !== undefined && { error: exchange.error }),
  };
  return line;
}

export interface RelayedDelivery {
  startedAt: number;
  ms: number;
  headers: Record<string, string>;
  body: ParsedBody;
  bodyBytes: number;
  type: string | null;
  signature: 'valid' | 'invalid' | 'unverified';
  answer: { status: number; bodyBytes: number };
}

export function webhookLine(
  delivery: RelayedDelivery,
  departures: readonly Departure[],
  notes: readonly string[],
): WebhookLine {
  const allNotes = [...notes, bodyNote('request', delivery.body)].filter(
    (note): note is string => note !== undefined,
  );
  return {
    format: RECORDING_FORMAT,
    version: RECORDING_VERSION,
    at: new Date(delivery.startedAt).toISOString(),
    ms: Math.round(delivery.ms * 1000) / 1000,
    webhook: {
      id: delivery.headers['webhook-id'] ?? null,
      type: delivery.type,
      headers: redactHeaders(delivery.headers),
      body: recordedBody(delivery.body),
      body_bytes: delivery.bodyBytes,
      signature: delivery.signature,
      answer: { status: delivery.answer.status, body_bytes: delivery.answer.bodyBytes },
    },
    departures: redactDepartures(departures),
    ...(allNotes.length > 0 && { notes: allNotes }),
  };
}
