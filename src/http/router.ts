import { OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from './env.js';

/**
 * One documented operation as its router file declares it: the route definition (the single
 * source of its validation, its handler's types and its OpenAPI entry) and its handler. The app
 * serves every operation through one request path (src/http/pipeline/), which validates from
 * this very definition and calls this very handler.
 */
export interface Operation {
  route: RouteConfig;
  /** Route middleware (`middleware:` in the definition), run after validation of nothing, before it. */
  middleware: MiddlewareHandler<AppEnv>[];
  handler: (c: Context<AppEnv>) => unknown;
}

const operations = new WeakMap<object, Operation[]>();

/**
 * A router of documented operations. `openapi(route, handler)` registers the route in the
 * router's OpenAPI registry (which the app merges into `/v3/openapi.json`) and records the
 * operation for the app's request path; nothing is added to the router's own route table, so no
 * operation is ever reachable by a second path. Validation failures become 400
 * `validation_failed` problems listing every field (src/http/pipeline/validation.ts).
 */
export function createRouter(): OpenAPIHono<AppEnv> {
  const router = new OpenAPIHono<AppEnv>();
  const list: Operation[] = [];
  const record = (
    { middleware, hide, ...route }: RouteConfig,
    handler: Operation['handler'],
    hook?: unknown,
  ): OpenAPIHono<AppEnv> => {
    if (hook !== undefined) throw new Error(`${route.path}: per-route validation hooks are not supported`);
    if (!hide) router.openAPIRegistry.registerPath(route);
    const before = middleware === undefined ? [] : Array.isArray(middleware) ? middleware : [middleware];
    list.push({ route, middleware: before as MiddlewareHandler<AppEnv>[], handler });
    return router;
  };
  router.openapi = record as unknown as typeof router.openapi;
  operations.set(router, list);
  return router;
}

/** The operations a router made by `createRouter` recorded, in declaration order. */
export function operationsOf(router: object): readonly Operation[] {
  return operations.get(router) ?? [];
}
