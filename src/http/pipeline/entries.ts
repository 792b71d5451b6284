import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, Handler } from 'hono';
import { AccessLog } from '../access-log.js';
import type { AppEnv } from '../env.js';
import { type SandboxMetrics, UNMATCHED_ROUTE } from '../metrics.js';
import { Answer, toResponse } from './answer.js';
import type { Compression } from './compression.js';
import { OperationContext } from './operation-context.js';
import { type CompiledOperation, lastResort } from './pipeline.js';
import { FetchRequestFacts, NodeRequestFacts } from './request-facts.js';

type Pipeline = {
  run(
    c: OperationContext,
    op: CompiledOperation | undefined,
    params: Record<string, string>,
  ): Answer | Promise<Answer>;
};

/** Request targets Node's entry takes as they are: no percent-encoding, no dot segment, no backslash. */
const PLAIN_TARGET = /^\/v3\/[!#$&-;=?-[\]_a-z~]*$/;
const DOT_SEGMENT = /\/\.\.?(?:[/?#]|$)/;

/**
 * The entries of the request path, one per transport; both run the same pipeline with the same
 * operation context, so an answer, its headers and its inspector entry are the same however the
 * request arrived. Each operation is one Hono handler (`handlerFor`): Hono's router finds it, and
 * `app.fetch` (`app.request` in tests, the dashboard, the scenario runner) calls it directly, with
 * no middleware chain around it. Node's server goes straight to the same handler's operation
 * (`node`), without the fetch Request and Response objects, for requests whose target is plain.
 */
export class Entries {
  private readonly operations = new WeakMap<object, CompiledOperation>();

  constructor(
    private readonly app: OpenAPIHono<AppEnv>,
    private readonly pipeline: Pipeline,
    readonly compression: Compression,
    /** Counts Node's entry's answers (`app.fetch`'s are counted by the app's metrics middleware). */
    private readonly metrics?: SandboxMetrics | undefined,
    /** That middleware, which Node's entry steps over when it matches a route. */
    private readonly counting?: object | undefined,
  ) {}

  /**
   * A response of a route outside /v3 (the docs' files, the document Swagger UI reads), compressed
   * as the request path compresses its answers.
   */
  respond(c: Context, status: number, headers: Record<string, string>, body: string | Uint8Array): Response {
    const pairs: string[] = [];
    for (const [name, value] of Object.entries(headers)) pairs.push(name, value);
    return toResponse(
      this.compression.apply(new Answer(status, pairs, body), c.req.header('accept-encoding')),
    );
  }

  /** The Hono handler of an operation: what `app.fetch` calls for its method and path. */
  handlerFor(op: CompiledOperation): Handler<AppEnv> {
    const handler: Handler<AppEnv> = (c) => this.fromHono(c, op, c.req.param() as Record<string, string>);
    this.operations.set(handler, op);
    return handler;
  }

  /** The answer to a /v3 request no route matched, for `app.notFound`. */
  unmatched(c: Context<AppEnv>): Response | Promise<Response> {
    return this.fromHono(c, undefined, {});
  }

  private fromHono(
    c: Context<AppEnv>,
    op: CompiledOperation | undefined,
    params: Record<string, string>,
  ): Response | Promise<Response> {
    const path = c.req.path;
    const ctx = new OperationContext(
      new FetchRequestFacts(c.req.raw, path, c.req.bodyCache as never),
      path,
      undefined,
      c.env,
    );
    const accept = c.req.header('accept-encoding');
    const finish = (a: Answer) => toResponse(this.compression.apply(a, accept));
    const out = this.pipeline.run(ctx, op, params);
    // Behind Node's server (shared mode, a target Node's entry leaves to app.fetch): the access
    // line names the request.
    const outgoing = (c.env as { outgoing?: object } | undefined)?.outgoing;
    if (outgoing) AccessLog.noteRequestId(outgoing, ctx.get('requestId'));
    return out instanceof Promise ? out.then(finish) : finish(out);
  }

  /**
   * Node's entry: answers a /v3 request straight from Node's request and response when its target
   * is plain and its method is one the API has (others go through `app.fetch`, whose answer is
   * the same). Returns false, having touched nothing, for a request it leaves to `app.fetch`.
   * Catches everything: nothing a request does ends the process.
   */
  node(req: IncomingMessage, res: ServerResponse, accessLog: AccessLog | undefined): boolean {
    const method = req.method;
    if (
      method !== 'GET' &&
      method !== 'POST' &&
      method !== 'PATCH' &&
      method !== 'DELETE' &&
      method !== 'PUT'
    ) {
      return false;
    }
    const target = req.url ?? '';
    if (!PLAIN_TARGET.test(target) || DOT_SEGMENT.test(target)) return false;
    let end = target.indexOf('?');
    const hash = target.indexOf('#');
    if (hash >= 0 && (end < 0 || hash < end)) end = hash;
    let path = end < 0 ? target : target.slice(0, end);
    // strict: false, as the app: `/v3/customers/` is `/v3/customers`.
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    const match = this.app.router.match(method, path);
    const handlers = match[0] as unknown as [[object]][];
    // The app's metrics middleware (app.fetch's count, on every path) is not a route: this entry
    // counts its own answers.
    const first = this.counting !== undefined && handlers[0]?.[0][0] === this.counting ? 1 : 0;
    let op: CompiledOperation | undefined;
    if (handlers.length - first === 1) {
      op = this.operations.get((handlers[first] as [[object]])[0][0]);
      if (!op) return false;
    } else if (handlers.length - first > 1) return false;
    const started = performance.now();
    let c: OperationContext | undefined;
    try {
      c = new OperationContext(new NodeRequestFacts(req, method, path), path, match as never, {
        incoming: req,
        outgoing: res,
      });
      if (first) c.req.routeIndex = first;
      const out = this.pipeline.run(c, op, op ? (c.req.param() as Record<string, string>) : {});
      const accept = req.headers['accept-encoding'];
      if (out instanceof Promise) {
        const context = c;
        // Its headers went out as writeHead's list (res.getHeader does not see them): the access
        // line and the metrics take the request id and route from here, once the answer is
        // written (ended at once, or cut) or, for a streamed answer, once the response closes.
        const after = () => {
          if (!accessLog && !this.metrics) return;
          const logged = () => {
            try {
              this.done(accessLog, method, target, op, res.statusCode, started, context);
            } catch {
              // Outside any request's try: a line or a metric is lost, the answer stands.
            }
          };
          if (res.writableEnded || res.destroyed) logged();
          else res.once('close', logged);
        };
        out.then(
          (a) => {
            this.write(res, a, accept);
            after();
          },
          () => {
            this.write(res, lastResort(context.get('requestId')), undefined);
            after();
          },
        );
        return true;
      }
      this.write(res, out, accept);
    } catch {
      this.write(res, lastResort(c?.get('requestId')), undefined);
    }
    this.done(accessLog, method, target, op, res.statusCode, started, c);
    return true;
  }

  /** The access line and the metrics of an answered request. */
  private done(
    accessLog: AccessLog | undefined,
    method: string,
    target: string,
    op: CompiledOperation | undefined,
    status: number,
    started: number,
    c: OperationContext | undefined,
  ): void {
    accessLog?.line(method, target, status, started, c?.get('requestId'));
    this.metrics?.observeRequest(method, routeOf(op), status, (performance.now() - started) / 1000);
  }

  private write(res: ServerResponse, a: Answer, accept: string | string[] | undefined): void {
    // A fault rule cut the connection: nothing more goes out.
    if (res.destroyed || res.headersSent) return;
    try {
      const out = this.compression.apply(a, typeof accept === 'string' ? accept : accept?.join(', '));
      const body = out.body;
      if (body === null || typeof body === 'string' || body instanceof Uint8Array) {
        const headers = out.headers;
        if (body !== null) {
          headers.push(
            'Content-Length',
            String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength),
          );
        }
        res.writeHead(out.status, headers);
        res.end(body ?? undefined);
        return;
      }
      res.writeHead(out.status, out.headers);
      const stream = Readable.fromWeb(body as never);
      stream.on('error', () => res.destroy());
      stream.pipe(res);
    } catch {
      if (!res.headersSent) {
        const last = lastResort(undefined);
        res.writeHead(last.status, last.headers);
        res.end(last.body);
      } else res.destroy();
    }
  }
}

/** The metrics label of an operation: its route template (`/v3/customers/{customer_id}`). */
function routeOf(op: CompiledOperation | undefined): string {
  return op ? op.route : UNMATCHED_ROUTE;
}
