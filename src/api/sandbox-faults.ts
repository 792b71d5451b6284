import { createRoute } from '@hono/zod-openapi';
import {
  addFaultRule,
  clearFaultRules,
  deleteFaultRule,
  faultRuleView,
  listFaultRules,
  MAX_FAULT_DELAY_MS,
  MAX_FAULT_RULES,
  MAX_FAULT_TIMEOUT_MS,
  type RouteTemplate,
} from '../domain/faults/fault-rules.js';
import type { AppDeps } from '../http/deps.js';
import { createRouter } from '../http/router.js';
import { domainContext } from './context.js';
import { COMMON_ERRORS, json, problemResponses } from './schemas/common.js';
import {
  ClearedFaults,
  CreateFaultBody,
  FaultParams,
  FaultRuleList,
  FaultRuleSchema,
} from './schemas/faults.js';

const tags = ['Sandbox control'];

const create = createRoute({
  method: 'post',
  path: '/sandbox/faults',
  operationId: 'createFault',
  tags,
  summary: 'Make the API itself fail on command (status, lost answer, delay, reset, timeout, truncation)',
  description: `Adds a rule that acts on the partner's own calls matching \`match\` (method and OpenAPI path template below \`/v3\`), in order of creation: on the next \`times\` calls, on each with \`probability\` (drawn from the partner's random stream, so \`--seed\` repeats it), or on every call, until \`expires_in\` on the partner clock. \`/sandbox/*\` routes, \`/openapi.json\`, the dashboard and hosted pages are never faulted; \`/auth/token\` only when a rule names it, and such a rule must end by itself: it needs \`times\` or \`expires_in\` of at most 1h (422 \`fault_rule_unbounded\` otherwise), since deleting a rule needs a token (the dashboard's Faults page does not). Each faulted call shows in the request inspector with \`fault\`. At most ${MAX_FAULT_RULES} rules per partner; delays up to ${MAX_FAULT_DELAY_MS / 1000}s, timeouts up to ${MAX_FAULT_TIMEOUT_MS / 1000}s (real time).`,
  request: { body: { required: true, content: { 'application/json': { schema: CreateFaultBody } } } },
  responses: {
    201: {
      ...json(FaultRuleSchema, 'The rule, with its id'),
      headers: { Location: { schema: { type: 'string' }, description: '/v3/sandbox/faults/<fault_id>' } },
    },
    ...problemResponses(400, 422, ...COMMON_ERRORS),
  },
});

const list = createRoute({
  method: 'get',
  path: '/sandbox/faults',
  operationId: 'listFaults',
  tags,
  summary: "The partner's fault rules in force, in the order they are matched",
  responses: { 200: json(FaultRuleList, 'The rules'), ...problemResponses(...COMMON_ERRORS) },
});

const remove = createRoute({
  method: 'delete',
  path: '/sandbox/faults/{fault_id}',
  operationId: 'deleteFault',
  tags,
  summary: 'Delete one fault rule',
  request: { params: FaultParams },
  responses: {
    200: json(FaultRuleSchema, 'The rule as it was when deleted'),
    ...problemResponses(404, ...COMMON_ERRORS),
  },
});

const clear = createRoute({
  method: 'delete',
  path: '/sandbox/faults',
  operationId: 'clearFaults',
  tags,
  summary: "Delete all of the partner's fault rules",
  responses: {
    200: json(ClearedFaults, 'How many rules were removed'),
    ...problemResponses(...COMMON_ERRORS),
  },
});

/**
 * `/v3/sandbox/faults`. `routes` lists the API's operations (read on use: the document is complete
 * only once every router is mounted), against which a rule's path is checked.
 */
export function sandboxFaultRoutes(deps: AppDeps, routes: () => readonly RouteTemplate[]) {
  const app = createRouter();

  app.openapi(create, (c) => {
    const rule = addFaultRule(domainContext(deps, c), routes(), c.req.valid('json'));
    c.header('Location', `/v3/sandbox/faults/${rule.id}`);
    return c.json(faultRuleView(rule), 201);
  });

  app.openapi(list, (c) => {
    const rules = listFaultRules(deps.store, c.get('partner').id, c.get('clock').nowMs());
    return c.json({ data: rules.map(faultRuleView) }, 200);
  });

  app.openapi(remove, (c) => {
    const rule = deleteFaultRule(deps.store, c.get('partner').id, c.req.valid('param').fault_id);
    return c.json(faultRuleView(rule), 200);
  });

  app.openapi(clear, (c) => c.json({ deleted: clearFaultRules(deps.store, c.get('partner').id) }, 200));

  return app;
}
