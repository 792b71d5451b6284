import type { RouteConfig } from '@hono/zod-openapi';
import { HTTPException } from 'hono/http-exception';
import { validator } from 'hono/validator';
import type { z } from 'zod';
import type { OperationContext } from './operation-context.js';
import { decodeText } from './request-facts.js';
import { parsed } from './zod-problem.js';

type Schema = z.ZodType;
type BodyConfig = NonNullable<RouteConfig['request']>['body'];

// zod-openapi's media-type matching (the body validators it builds; not exported by it).
const JSON_TYPE = /^application\/([a-z-.]+\+)?json/i;
const JSON_REQUEST = /^application\/([a-z-.]+\+)?json(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i;
const MULTIPART_REQUEST = /^multipart\/form-data(;\s?boundary=[a-zA-Z0-9'"()+_,\-./:=?]+)?$/i;
const URLENCODED_REQUEST = /^application\/x-www-form-urlencoded(;\s*[a-zA-Z0-9-]+=([^;]+))*$/i;
const JSON_MEDIA = /^application\/([\w.-]+\+)?json$/i;

const isForm = (type: string) =>
  /^multipart\/form-data/i.test(type) || /^application\/x-www-form-urlencoded/i.test(type);

function matchesMediaType(contentType: string, mediaType: string): boolean {
  if (mediaType === '*/*') return true;
  if (JSON_TYPE.test(mediaType)) return JSON_REQUEST.test(contentType);
  if (isForm(mediaType)) return MULTIPART_REQUEST.test(contentType) || URLENCODED_REQUEST.test(contentType);
  const essence = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  if (mediaType.endsWith('/*')) return essence.startsWith(mediaType.slice(0, -1).toLowerCase());
  return essence === mediaType.toLowerCase();
}

function isZod(value: unknown): value is Schema {
  return typeof (value as { safeParse?: unknown } | undefined)?.safeParse === 'function';
}

/**
 * An operation's request body, checked as @hono/zod-openapi's validators check it and in their
 * order: the media-type gate (415 for a Content-Type the definition does not declare, or a body
 * without one), then the JSON schema, then the form schema; an optional body of another type
 * validates as `{}`. JSON is checked synchronously on the bytes the request path has already read
 * (no promise per validator); a form goes through Hono's own form reading.
 */
export class BodyValidation {
  private readonly declared: string[] = [];
  private readonly gate: boolean;
  private readonly required: boolean;
  private readonly json: Schema | undefined;
  private readonly form: ((c: OperationContext) => Promise<void>) | undefined;

  constructor(body: BodyConfig) {
    const content = (body as { content?: Record<string, { schema?: unknown }> } | undefined)?.content ?? {};
    this.required = (body as { required?: boolean } | undefined)?.required === true;
    this.declared = Object.keys(content);
    this.gate = this.declared.some((t) => isZod(content[t]?.schema) && (JSON_TYPE.test(t) || isForm(t)));
    for (const type of this.declared) {
      const schema = content[type]?.schema;
      if (!isZod(schema)) continue;
      if (JSON_TYPE.test(type)) this.json = schema;
      else if (isForm(type)) this.form = formValidator(schema);
    }
  }

  /** Whether the gate needs to know if a request without a Content-Type sent a body. */
  get needsBytes(): boolean {
    return this.gate;
  }

  /**
   * Checks the body; `bytes` is the body when the request path read it (JSON and form bodies, and
   * any body sent without a Content-Type to an operation that has one). Synchronous unless a form
   * is read.
   */
  check(c: OperationContext, bytes: Uint8Array | undefined): void | Promise<void> {
    const contentType = c.facts.header('content-type');
    if (this.gate) {
      if (contentType) {
        if (!this.declared.some((type) => matchesMediaType(contentType, type))) {
          throw new HTTPException(415, { message: 'Unsupported Media Type' });
        }
      } else if (bytes !== undefined && bytes.byteLength > 0) {
        throw new HTTPException(415, { message: 'Unsupported Media Type' });
      }
    }
    if (this.json) {
      if (this.required || (contentType && JSON_TYPE.test(contentType)))
        this.checkJson(c, contentType, bytes);
      else c.req.addValidatedData('json', {});
    }
    if (this.form) {
      if (this.required || (contentType && isForm(contentType))) return this.form(c);
      c.req.addValidatedData('form', {});
    }
  }

  private checkJson(
    c: OperationContext,
    contentType: string | undefined,
    bytes: Uint8Array | undefined,
  ): void {
    const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    let value: unknown = {};
    if (JSON_MEDIA.test(mediaType)) {
      // The text the request path decoded and checked (src/http/middleware/well-formed-text.ts).
      const read = c.facts.textRead;
      const text = read ?? decodeText(bytes ?? new Uint8Array());
      try {
        value = JSON.parse(text);
      } catch {
        throw new HTTPException(400, { message: 'Malformed JSON in request body' });
      }
      if (read !== undefined) c.facts.jsonRead = value;
    }
    c.req.addValidatedData('json', parsed(this.json as Schema, value, 'json') as object);
  }
}

function formValidator(schema: Schema): (c: OperationContext) => Promise<void> {
  // Hono's own form reading (multipart and urlencoded, `key[]` arrays), then the schema.
  const middleware = validator('form', (value) => parsed(schema, value, 'form') as object);
  return async (c) => {
    // Read first: a body over the limit is that refusal, not a malformed form.
    await c.facts.bytes();
    await middleware(c as never, async () => {});
  };
}
