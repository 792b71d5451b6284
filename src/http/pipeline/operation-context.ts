import { Context } from 'hono';
import type { Result } from 'hono/router';
import type { AppEnv } from '../env.js';
import { Answer, type AnswerBody, deletePair, setPair } from './answer.js';
import type { RequestFacts } from './request-facts.js';

type HeaderInit = Record<string, string | string[]> | [string, string][] | Headers;
type StatusOrInit = number | { status?: number; headers?: HeaderInit } | undefined;
type Variables = AppEnv['Variables'];

/**
 * The Hono context an operation's handler receives from the request path: Hono's own `Context`
 * (`c.req.valid`, `c.req.header`, `c.env`, …) whose answers (`c.json`, `c.body`, `c.text`,
 * `c.html`, `c.header`, `c.status`) are built as the pipeline's `Answer` instead of a fetch
 * `Response`, and whose variables (`c.get`, `c.set`) are plain fields: no Response, Headers or
 * Map is made for a request. The methods are shared functions, not closures made per request.
 */
export class OperationContext extends Context<AppEnv> {
  /** The request's own headers (`Request-Id`, `RateLimit-*`), set by the pipeline, first in every answer. */
  head: string[] = [];
  /** Headers set with `c.header` before the answer, as name/value pairs. */
  pending: string[] | undefined;
  answerStatus: number | undefined;
  vars: Partial<Variables> = {};

  constructor(
    readonly facts: RequestFacts,
    path: string,
    matchResult: Result<never> | undefined,
    env: unknown,
  ) {
    super(facts as unknown as Request, {
      env: env as never,
      path,
      ...(matchResult && { matchResult: matchResult as never }),
    });
    this.header = setHeader as unknown as Context<AppEnv>['header'];
    this.status = setStatus as unknown as Context<AppEnv>['status'];
    this.json = json as unknown as Context<AppEnv>['json'];
    this.body = body as unknown as Context<AppEnv>['body'];
    this.text = text as unknown as Context<AppEnv>['text'];
    this.html = html as unknown as Context<AppEnv>['html'];
    this.get = get as unknown as Context<AppEnv>['get'];
    this.set = set as unknown as Context<AppEnv>['set'];
  }

  /** An answer whose body is JSON text already serialised (a view kept per row version). */
  jsonText(text: string, status: number): Answer {
    return answerWith(this, text, 'application/json', status, undefined);
  }
}

function get(this: OperationContext, key: keyof Variables): unknown {
  return this.vars[key];
}

function set(this: OperationContext, key: keyof Variables, value: never): void {
  this.vars[key] = value;
}

function setHeader(
  this: OperationContext,
  name: string,
  value?: string,
  options?: { append?: boolean },
): void {
  this.pending ??= [];
  if (value === undefined) deletePair(this.pending, name);
  else if (options?.append) this.pending.push(name, value);
  else setPair(this.pending, name, value);
}

function setStatus(this: OperationContext, status: number): void {
  this.answerStatus = status;
}

function json(this: OperationContext, object: unknown, arg?: StatusOrInit, headers?: HeaderInit): Answer {
  return answerWith(this, JSON.stringify(object), 'application/json', arg, headers);
}

function body(
  this: OperationContext,
  data: AnswerBody | ArrayBuffer,
  arg?: StatusOrInit,
  headers?: HeaderInit,
): Answer {
  return answerWith(this, data instanceof ArrayBuffer ? new Uint8Array(data) : data, undefined, arg, headers);
}

function text(this: OperationContext, value: string, arg?: StatusOrInit, headers?: HeaderInit): Answer {
  return answerWith(this, value, 'text/plain; charset=UTF-8', arg, headers);
}

function html(this: OperationContext, value: string, arg?: StatusOrInit, headers?: HeaderInit): Answer {
  return answerWith(this, value, 'text/html; charset=UTF-8', arg, headers);
}

/** The answer: the request's own headers, then those of `c.header`, the content type, `init`'s. */
function answerWith(
  c: OperationContext,
  data: AnswerBody,
  contentType: string | undefined,
  arg: StatusOrInit,
  init: HeaderInit | undefined,
): Answer {
  const pending = c.pending;
  const headers = pending === undefined ? c.head.slice() : c.head.concat(pending);
  if (contentType !== undefined) {
    if (pending === undefined) headers.push('content-type', contentType);
    else setPair(headers, 'content-type', contentType);
  }
  let status = c.answerStatus ?? 200;
  let extra = init;
  if (typeof arg === 'number') status = arg;
  else if (arg !== undefined) {
    status = arg.status ?? status;
    extra = arg.headers ?? extra;
  }
  if (extra !== undefined) addHeaders(headers, extra);
  return new Answer(status, headers, data, true);
}

function addHeaders(headers: string[], init: HeaderInit): void {
  if (init instanceof Headers) {
    init.forEach((value, name) => {
      setPair(headers, name, value);
    });
    return;
  }
  const entries = Array.isArray(init) ? init : Object.entries(init);
  for (const [name, value] of entries) {
    if (Array.isArray(value)) {
      deletePair(headers, name);
      for (const v of value) headers.push(name, v);
    } else setPair(headers, name, value);
  }
}
