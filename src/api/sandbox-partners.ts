import { createRoute } from '@hono/zod-openapi';
import { ApiError } from '../domain/errors.js';
import { createPartner, partnerClock } from '../domain/partners.js';
import type { AppDeps } from '../http/deps.js';
import { createRouter } from '../http/router.js';
import { COMMON_ERRORS, json, problemResponses } from './schemas/common.js';
import { CreatePartnerBody, NewPartnerSchema } from './schemas/sandbox.js';

const create = createRoute({
  method: 'post',
  path: '/sandbox/partners',
  tags: ['Sandbox control'],
  summary: 'Create an isolated partner (workspace) and its first credential',
  description:
    'Each partner has its own data, clock, webhooks and event log; parallel CI jobs use one each so they never see each other.',
  request: { body: { required: false, content: { 'application/json': { schema: CreatePartnerBody } } } },
  responses: {
    201: json(NewPartnerSchema, 'The partner and its credential'),
    ...problemResponses(400, 403, ...COMMON_ERRORS),
  },
});

export function sandboxPartnerRoutes(deps: AppDeps) {
  const app = createRouter();
  app.openapi(create, (c) => {
    if (deps.config.partnerSignup === false) {
      throw new ApiError(
        'partner_signup_disabled',
        'Creating partners is turned off on this sandbox (--partner-signup off). Use the credential its operator gave you.',
      );
    }
    const body = c.req.valid('json') ?? {};
    const { partner, credential, secret } = createPartner(deps, {
      name: body.name ?? 'sandbox partner',
      clockMode: body.clock ?? deps.config.clockMode,
    });
    const clock = partnerClock(deps, partner.id);
    return c.json(
      {
        id: partner.id,
        name: partner.name,
        created_at: partner.created_at,
        clock: { now: clock.iso(), frozen: partner.clock.frozen_at_ms !== null },
        client_id: credential.id,
        client_secret: secret,
      },
      201,
    );
  });
  return app;
}
