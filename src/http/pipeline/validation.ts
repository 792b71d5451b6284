import type { RouteConfig } from '@hono/zod-openapi';
import { HTTPException } from 'hono/http-exception';
import { getQueryParams } from 'hono/utils/url';
import { validator } from 'hono/validator';
import type { z } from 'zod';
import { ApiError, type FieldError } from '../../domain/errors.js';
import type { OperationContext } from './operation-context.js';

type Schema = z.ZodType;
type Target = 'query' | 'param' | 'header' | 'json' | 'form';

/**
 * An operation's request validation, compiled once from its route definition (the same zod
 * schemas that type its handler and write its OpenAPI entry), in the order and with the outcome
 * of @hono/zod-openapi's validators: query, path parameters, headers, then the body (its media
 * type, then its schema). What is cheaper here: path parameters that are plain strings, enums or
 * patterned strings are checked by their pattern, with zod asked only to word a refusal; a
 * request without a query string reuses the parse of an empty query; headers are looked up by
 * the schema's own names. Failures are 400 `validation_failed` problems listing every field.
 */
export class Validation {
  private readonly query: Schema | undefined;
  private readonly params: Schema | undefined;
  private readonly paramChecks: [string, (value: string) => boolean][] | undefined;
  private readonly headerSchema: Schema | undefined;
  private readonly headerNames: [string, string][] | undefined;
  private emptyQuery: Record<string, unknown> | undefined;
  /** Body validators, run in order (zod-openapi's media-type gate, then one per media type). */
  readonly body: ((c: OperationContext) => Promise<void>)[];

  constructor(route: RouteConfig) {
    const request = route.request;
    this.query = request?.query as Schema | undefined;
    this.params = request?.params as Schema | undefined;
    this.paramChecks = this.params ? patternChecks(this.params) : undefined;
    this.headerSchema = request?.headers as Schema | undefined;
    this.headerNames = this.headerSchema ? plainKeys(this.headerSchema) : undefined;
    this.body = bodyValidators(request?.body);
  }

  /** Validates what the URL and the headers carry. */
  checkUrl(c: OperationContext, params: Record<string, string>): void {
    if (this.query) c.req.addValidatedData('query', this.parseQuery(c.facts.query) as Record<string, string>);
    if (this.params) c.req.addValidatedData('param', this.checkParams(params) as Record<string, string>);
    if (this.headerSchema) c.req.addValidatedData('header', this.parseHeaders(c) as Record<string, string>);
  }

  private parseQuery(query: string): Record<string, unknown> {
    const schema = this.query as Schema;
    if (query === '') {
      this.emptyQuery ??= parsed(schema, {}, 'query') as Record<string, unknown>;
      return { ...this.emptyQuery };
    }
    const value: Record<string, string | string[]> = {};
    const all = getQueryParams(`http://localhost/?${query}`) as Record<string, string[]>;
    for (const [key, values] of Object.entries(all)) {
      value[key] = values.length === 1 ? (values[0] as string) : values;
    }
    return parsed(schema, value, 'query') as Record<string, unknown>;
  }

  private checkParams(params: Record<string, string>): unknown {
    const checks = this.paramChecks;
    if (checks) {
      const out: Record<string, string> = {};
      let ok = true;
      for (const [name, check] of checks) {
        const value = params[name];
        if (value === undefined || !check(value)) {
          ok = false;
          break;
        }
        out[name] = value;
      }
      if (ok) return out;
    }
    return parsed(this.params as Schema, params, 'param');
  }

  private parseHeaders(c: OperationContext): unknown {
    let value: Record<string, string>;
    if (this.headerNames) {
      value = {};
      for (const [lower, name] of this.headerNames) {
        const found = c.facts.header(lower);
        if (found !== undefined) value[name] = found;
      }
    } else {
      value = c.req.header();
    }
    return parsed(this.headerSchema as Schema, value, 'header');
  }
}

/** A schema's parse, or the 400 problem that lists what failed. */
function parsed(schema: Schema, value: unknown, target: Target): unknown {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors = fieldErrors(result.error, target);
  throw new ApiError('validation_failed', summarize(errors), { param: errors[0]?.param, errors });
}

function fieldErrors(error: z.ZodError, target: string): FieldError[] {
  return error.issues.map((issue) => {
    const param =
      issue.path.length > 0 ? issue.path.map(String).join('.') : target === 'json' ? 'body' : target;
    const missing = issue.code === 'invalid_type' && /received undefined/.test(issue.message);
    return {
      param,
      detail: missing ? `${param} is required` : `${param}: ${issue.message}`,
      code: missing ? 'required' : issue.code,
    };
  });
}

function summarize(errors: FieldError[]): string {
  if (errors.length === 1) return `Invalid request: ${errors[0]?.detail}.`;
  return `Invalid request: ${errors.length} problems (${errors.map((e) => e.param).join(', ')}). See errors[].`;
}

interface ZodInternals {
  _zod: {
    def: {
      type: string;
      shape?: Record<string, ZodInternals>;
      catchall?: unknown;
      checks?: {
        _zod: {
          def: {
            check: string;
            format?: string;
            pattern?: RegExp;
            minimum?: number;
            maximum?: number;
            length?: number;
          };
        };
      }[];
      entries?: Record<string, string | number>;
    };
  };
}

/** The keys of a plain `z.object` (no catch-all), as [lower-case, as written]; else undefined. */
function plainKeys(schema: Schema): [string, string][] | undefined {
  const def = (schema as unknown as ZodInternals)._zod.def;
  if (def.type !== 'object' || def.catchall !== undefined || !def.shape) return undefined;
  return Object.keys(def.shape).map((key) => [key.toLowerCase(), key]);
}

/**
 * Pattern checks for a params object whose every field is a plain string (with length and regex
 * checks only) or a string enum; undefined when any field needs zod itself.
 */
function patternChecks(schema: Schema): [string, (value: string) => boolean][] | undefined {
  const def = (schema as unknown as ZodInternals)._zod.def;
  if (def.type !== 'object' || def.catchall !== undefined || !def.shape) return undefined;
  const checks: [string, (value: string) => boolean][] = [];
  for (const [name, field] of Object.entries(def.shape)) {
    const check = fieldCheck(field._zod.def);
    if (!check) return undefined;
    checks.push([name, check]);
  }
  return checks;
}

function fieldCheck(def: ZodInternals['_zod']['def']): ((value: string) => boolean) | undefined {
  if (def.type === 'enum') {
    const values = new Set(Object.values(def.entries ?? {}));
    return (value) => values.has(value);
  }
  if (def.type !== 'string') return undefined;
  let min = 0;
  let max = Number.POSITIVE_INFINITY;
  const patterns: RegExp[] = [];
  for (const check of def.checks ?? []) {
    const c = check._zod.def;
    if (c.check === 'min_length') min = Math.max(min, c.minimum ?? 0);
    else if (c.check === 'max_length') max = Math.min(max, c.maximum ?? max);
    else if (c.check === 'length_equals') {
      min = c.length ?? min;
      max = c.length ?? max;
    } else if (c.check === 'string_format' && c.format === 'regex' && c.pattern) patterns.push(c.pattern);
    else return undefined;
  }
  return (value) => value.length >= min && value.length <= max && patterns.every((p) => p.test(value));
}

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

type BodyConfig = NonNullable<RouteConfig['request']>['body'];

function isZod(value: unknown): value is Schema {
  return typeof (value as { safeParse?: unknown } | undefined)?.safeParse === 'function';
}

/** zod-openapi's body validators for this body definition, in its order. */
function bodyValidators(body: BodyConfig): ((c: OperationContext) => Promise<void>)[] {
  const content = (body as { content?: Record<string, { schema?: unknown }> } | undefined)?.content;
  if (!content) return [];
  const required = (body as { required?: boolean }).required === true;
  const declared = Object.keys(content);
  const out: ((c: OperationContext) => Promise<void>)[] = [];
  if (declared.some((type) => isZod(content[type]?.schema) && (JSON_TYPE.test(type) || isForm(type)))) {
    out.push(async (c) => {
      const contentType = c.facts.header('content-type');
      if (contentType) {
        if (!declared.some((type) => matchesMediaType(contentType, type))) {
          throw new HTTPException(415, { message: 'Unsupported Media Type' });
        }
      } else if ((await c.facts.bytes()).byteLength > 0) {
        throw new HTTPException(415, { message: 'Unsupported Media Type' });
      }
    });
  }
  for (const type of declared) {
    const schema = content[type]?.schema;
    if (!isZod(schema)) continue;
    const target = JSON_TYPE.test(type) ? 'json' : isForm(type) ? 'form' : undefined;
    if (!target) continue;
    const validate = target === 'json' ? jsonValidator(schema) : formValidator(schema);
    const matches = target === 'json' ? (t: string) => JSON_TYPE.test(t) : isForm;
    out.push(
      required
        ? validate
        : async (c) => {
            const contentType = c.facts.header('content-type');
            if (contentType && matches(contentType)) return validate(c);
            c.req.addValidatedData(target, {});
          },
    );
  }
  return out;
}

function jsonValidator(schema: Schema): (c: OperationContext) => Promise<void> {
  return async (c) => {
    const mediaType = (c.facts.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    let value: unknown = {};
    if (JSON_MEDIA.test(mediaType)) {
      try {
        value = await c.req.json();
      } catch (error) {
        // A body too large or cut off is that refusal, not malformed JSON.
        if (!(error instanceof SyntaxError)) throw error;
        throw new HTTPException(400, { message: 'Malformed JSON in request body' });
      }
    }
    c.req.addValidatedData('json', parsed(schema, value, 'json') as object);
  };
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
