import { z } from 'zod';
import { jsonDepth } from '../lib/json-depth.js';

/**
 * The recording, version 1 (docs/proxy.md): NDJSON, one JSON object per line, in the order the
 * exchanges finished. An API exchange is a line with `request` and `response`; a webhook delivery
 * through the relay a line with `webhook`. Secrets are redacted before a line is written. This
 * schema is the one source of the shape: the proxy builds lines of its type and `replay` and
 * `scenario from-recording` read lines through it.
 */
export const RECORDING_FORMAT = 'credit-sandbox-recording';
export const RECORDING_VERSION = 1;

const Json: z.ZodType<unknown> = z.unknown();

export const DepartureSchema = z.object({ where: z.string(), expected: z.string(), actual: z.string() });

const HeadersSchema = z.record(z.string(), z.string());

/** A file part of a multipart body: the bytes are not recorded, their description is. */
const FilePartSchema = z.object({
  field: z.string(),
  filename: z.string(),
  content_type: z.string(),
  size: z.number().int().nonnegative(),
});

const FormSchema = z.object({ fields: z.record(z.string(), z.string()), files: z.array(FilePartSchema) });

export const RecordedRequestSchema = z.object({
  method: z.string().min(1),
  /** As the client sent it, from the base URL's `/v3` on, query included (secrets redacted). */
  path: z.string().startsWith('/'),
  headers: HeadersSchema,
  /** JSON or form fields as a value, text as a string, null when empty, binary or over the limit. */
  body: Json,
  body_bytes: z.number().int().nonnegative(),
  /** A multipart body: its fields and the description of its files. */
  form: FormSchema.optional(),
});

export const RecordedResponseSchema = z.object({
  status: z.number().int(),
  headers: HeadersSchema,
  body: Json,
  body_bytes: z.number().int().nonnegative(),
});

const Common = {
  format: z.literal(RECORDING_FORMAT),
  version: z.literal(RECORDING_VERSION),
  /** When the request arrived (the delivery, for a webhook), ISO 8601 UTC. */
  at: z.string(),
  /** Milliseconds from the request's arrival to the answer's last byte. */
  ms: z.number().nonnegative(),
  departures: z.array(DepartureSchema),
  /** Checks skipped and why (a body over the validation limit, an unverified signature). */
  notes: z.array(z.string()).optional(),
};

export const ExchangeLineSchema = z.object({
  ...Common,
  /** The document's operationId, or null when the document declares no such operation. */
  operation: z.string().nullable(),
  request: RecordedRequestSchema,
  response: RecordedResponseSchema,
  /** Set when the upstream could not be reached or the exchange broke off; `response` is the proxy's. */
  error: z.string().optional(),
});

export const WebhookLineSchema = z.object({
  ...Common,
  webhook: z.object({
    /** `webhook-id`: the event id. */
    id: z.string().nullable(),
    /** The payload's `type`, or null when it has none. */
    type: z.string().nullable(),
    headers: HeadersSchema,
    body: Json,
    body_bytes: z.number().int().nonnegative(),
    signature: z.enum(['valid', 'invalid', 'unverified']),
    /** What the app answered (the relay answers the upstream with the same). */
    answer: z.object({ status: z.number().int(), body_bytes: z.number().int().nonnegative() }),
  }),
});

export const RecordingLineSchema = z.union([ExchangeLineSchema, WebhookLineSchema]);

export type RecordedDeparture = z.infer<typeof DepartureSchema>;
export type ExchangeLine = z.infer<typeof ExchangeLineSchema>;
export type WebhookLine = z.infer<typeof WebhookLineSchema>;
export type RecordingLine = z.infer<typeof RecordingLineSchema>;

export function isWebhookLine(line: RecordingLine): line is WebhookLine {
  return 'webhook' in line;
}

/** Bodies are redacted (and cut) at 64 levels; a line adds a few of its own. */
const MAX_LINE_DEPTH = 80;

/** A line that is not a recording line of this version: says which line and why. */
export class RecordingFormatError extends Error {
  override name = 'RecordingFormatError';
}

/**
 * Parses a recording's text: every non-empty line must be a version-1 line. A line of another
 * format or version is refused by name, so an old reader never misreads a newer recording.
 */
export function parseRecording(text: string, source = 'recording'): RecordingLine[] {
  const lines: RecordingLine[] = [];
  for (const [index, raw] of text.split('\n').entries()) {
    if (raw.trim() === '') continue;
    const where = `${source}:${index + 1}`;
    // A recording's bodies are cut at 64 levels when written; a deeper line was not written by the proxy.
    if (jsonDepth(raw, MAX_LINE_DEPTH) > MAX_LINE_DEPTH) {
      throw new RecordingFormatError(`${where}: nests deeper than ${MAX_LINE_DEPTH} levels`);
    }
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      throw new RecordingFormatError(`${where}: not JSON`);
    }
    const head = value as { format?: unknown; version?: unknown } | null;
    if (head?.format !== RECORDING_FORMAT) {
      throw new RecordingFormatError(
        `${where}: not a credit-sandbox recording line (format ${JSON.stringify(head?.format)})`,
      );
    }
    if (head.version !== RECORDING_VERSION) {
      throw new RecordingFormatError(
        `${where}: recording version ${JSON.stringify(head.version)}; this credit-sandbox reads version ${RECORDING_VERSION}`,
      );
    }
    const parsed = RecordingLineSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new RecordingFormatError(
        `${where}: ${issue?.path.join('.') || 'line'}: ${issue?.message ?? 'invalid'}`,
      );
    }
    lines.push(parsed.data);
  }
  return lines;
}
