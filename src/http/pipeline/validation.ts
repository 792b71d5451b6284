import type { RouteConfig } from '@hono/zod-openapi';
import { getQueryParams } from 'hono/utils/url';
import type { z } from 'zod';
import { BodyValidation } from './body-validation.js';
import type { OperationContext } from './operation-context.js';
import { parsed } from './zod-problem.js';

type Schema = z.ZodType;

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
  /** The body's media type and schema (src/http/pipeline/body-validation.ts). */
  readonly body: BodyValidation;

  constructor(route: RouteConfig) {
    const request = route.request;
    this.query = request?.query as Schema | undefined;
    this.params = request?.params as Schema | undefined;
    this.paramChecks = this.params ? patternChecks(this.params) : undefined;
    this.headerSchema = request?.headers as Schema | undefined;
    this.headerNames = this.headerSchema ? plainKeys(this.headerSchema) : undefined;
    this.body = new BodyValidation(request?.body);
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
