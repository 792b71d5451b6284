import { createRoute } from '@hono/zod-openapi';
import { clockReading, parseDuration } from '../engine/clock.js';
import { clockViewAt } from '../engine/engine.js';
import type { AppDeps } from '../http/deps.js';
import { sendJson } from '../http/json-text.js';
import { createRouter } from '../http/router.js';
import { keyedViewText } from '../lib/view-text.js';
import { COMMON_ERRORS, json, problemResponses } from './schemas/common.js';
import { AdvanceClockBody, ClockSchema } from './schemas/sandbox.js';

const tags = ['Sandbox control'];

const show = createRoute({
  method: 'get',
  path: '/sandbox/clock',
  operationId: 'getSandboxClock',
  tags,
  summary: "Read the partner's clock",
  responses: { 200: json(ClockSchema, 'The clock'), ...problemResponses(...COMMON_ERRORS) },
});

const advance = createRoute({
  method: 'post',
  path: '/sandbox/clock/advance',
  operationId: 'advanceSandboxClock',
  tags,
  summary: 'Move the partner clock forward by a duration or to a date-time',
  description:
    "Answers when the partner's world is at the target: every timed job that falls due on the way runs first, in due-time order. One advance moves at most 3660 days, and a clock reads at most 9899-12-31T23:59:59.999Z (422 `clock_jump_too_large`), so everything it dates stays within year 9999.",
  request: { body: { required: true, content: { 'application/json': { schema: AdvanceClockBody } } } },
  responses: {
    200: json(ClockSchema, 'The clock after the move'),
    ...problemResponses(400, 422, ...COMMON_ERRORS),
  },
});

const freeze = createRoute({
  method: 'post',
  path: '/sandbox/clock/freeze',
  operationId: 'freezeSandboxClock',
  tags,
  summary: 'Stop the partner clock at its current reading',
  responses: { 200: json(ClockSchema, 'The clock'), ...problemResponses(...COMMON_ERRORS) },
});

const resume = createRoute({
  method: 'post',
  path: '/sandbox/clock/resume',
  operationId: 'resumeSandboxClock',
  tags,
  summary: 'Let the partner clock run again from its current reading',
  responses: { 200: json(ClockSchema, 'The clock'), ...problemResponses(...COMMON_ERRORS) },
});

export function sandboxClockRoutes(deps: AppDeps) {
  const app = createRouter();
  // The clock's answer for the partner row and the clock reading it was made for: a frozen clock
  // answers the same text until its row changes, a running one within a millisecond.
  const clockJson = keyedViewText(clockViewAt, 64 * 1024);
  app.openapi(show, (c) => {
    const partner = c.get('partner');
    return sendJson(c, clockJson(partner, clockReading(partner.clock, deps.realNow())), 200);
  });
  app.openapi(advance, (c) => {
    const body = c.req.valid('json');
    const target =
      body.to !== undefined
        ? Date.parse(body.to)
        : c.get('clock').nowMs() + (parseDuration(body.by ?? '') ?? 0);
    return c.json(deps.engine.advance(c.get('partner').id, target), 200);
  });
  app.openapi(freeze, (c) => c.json(deps.engine.freeze(c.get('partner').id), 200));
  app.openapi(resume, (c) => c.json(deps.engine.resume(c.get('partner').id), 200));
  return app;
}
