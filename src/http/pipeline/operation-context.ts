import { Context } from 'hono';
import type { Result } from 'hono/router';
import type { AppEnv } from '../env.js';
import { type AnswerBody, answer, deletePair, type MarkedAnswer, setPair } from './answer.js';
import type { RequestFacts } from './request-facts.js';

type HeaderInit = Record<string, string | string[]> | [string, string][] | Headers;
type StatusOrInit = number | { status?: number; headers?: HeaderInit } | undefined;

/**
 * The Hono context an operation's handler receives from the request path: Hono's own `Context`
 * (`c.req.valid`, `c.get`, `c.req.header`, `c.env`, …) whose answers (`c.json`, `c.body`,
 * `c.text`, `c.html`, `c.header`) are built as the pipeline's `Answer` instead of a fetch
 * `Response`: the pipeline completes and writes that answer on whichever transport carried the
 * request, so no Response or Headers object is made for it.
 */
export class OperationContext extends Context<AppEnv> {
  /** Headers set with `c.header` before the answer, as name/value pairs. */
  private readonly pending: string[] = [];
  private answerStatus: number | undefined;

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
    this.header = ((name: string, value?: string, options?: { append?: boolean }) => {
      if (value === undefined) deletePair(this.pending, name);
      else if (options?.append) this.pending.push(name, value);
      else setPair(this.pending, name, value);
    }) as Context<AppEnv>['header'];
    this.status = ((status: number) => {
      this.answerStatus = status;
    }) as Context<AppEnv>['status'];
    this.json = ((object: unknown, arg?: StatusOrInit, headers?: HeaderInit) =>
      this.answerWith(
        JSON.stringify(object),
        'application/json',
        arg,
        headers,
      )) as unknown as Context<AppEnv>['json'];
    this.body = ((data: AnswerBody | ArrayBuffer, arg?: StatusOrInit, headers?: HeaderInit) =>
      this.answerWith(
        data instanceof ArrayBuffer ? new Uint8Array(data) : data,
        undefined,
        arg,
        headers,
      )) as unknown as Context<AppEnv>['body'];
    this.text = ((text: string, arg?: StatusOrInit, headers?: HeaderInit) =>
      this.answerWith(text, 'text/plain; charset=UTF-8', arg, headers)) as unknown as Context<AppEnv>['text'];
    this.html = ((html: string, arg?: StatusOrInit, headers?: HeaderInit) =>
      this.answerWith(html, 'text/html; charset=UTF-8', arg, headers)) as unknown as Context<AppEnv>['html'];
  }

  /** An answer whose body is JSON text already serialised (a view kept per row version). */
  jsonText(text: string, status: number): MarkedAnswer {
    return this.answerWith(text, 'application/json', status, undefined);
  }

  private answerWith(
    body: AnswerBody,
    contentType: string | undefined,
    arg: StatusOrInit,
    init: HeaderInit | undefined,
  ): MarkedAnswer {
    const headers = this.pending.slice();
    if (contentType !== undefined) setPair(headers, 'content-type', contentType);
    let status = this.answerStatus ?? 200;
    let extra = init;
    if (typeof arg === 'number') status = arg;
    else if (arg !== undefined) {
      status = arg.status ?? status;
      extra = arg.headers ?? extra;
    }
    if (extra !== undefined) addHeaders(headers, extra);
    return answer(status, headers, body);
  }
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
