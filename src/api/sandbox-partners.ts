import { createRoute, z } from '@hono/zod-openapi';
import { ApiError } from '../domain/errors.js';
import { createPartner, pageOfPartners, partnerClock, partnersCreatedBy } from '../domain/partners.js';
import { clockReading } from '../engine/clock.js';
import type { AppDeps } from '../http/deps.js';
import { createRouter } from '../http/router.js';
import type { PartnerRecord } from '../store/records.js';
import { COMMON_ERRORS, json, PageQuery, problemResponses } from './schemas/common.js';
import { CreatePartnerBody, NewPartnerSchema, PartnerSchema } from './schemas/sandbox.js';

const create = createRoute({
  method: 'post',
  path: '/sandbox/partners',
  operationId: 'createSandboxPartner',
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

const list = createRoute({
  method: 'get',
  path: '/sandbox/partners',
  operationId: 'listSandboxPartners',
  tags: ['Sandbox control'],
  summary: 'List the partners this partner created, newest first',
  description:
    "Only partners created with this partner's token (`POST /sandbox/partners`) are listed, never their secrets: isolation holds, and a CI runner can find the workspaces it made.",
  request: { query: PageQuery },
  responses: {
    200: json(
      z.object({ data: z.array(PartnerSchema), has_more: z.boolean() }).openapi('PartnerList'),
      'A page of partners',
    ),
    ...problemResponses(400, ...COMMON_ERRORS),
  },
});

export function sandboxPartnerRoutes(deps: AppDeps) {
  const app = createRouter();
  // The clock is read from the row itself: in shared mode the partner may live on another instance.
  const view = (partner: PartnerRecord) => ({
    id: partner.id,
    name: partner.name,
    created_at: partner.created_at,
    clock: {
      now: new Date(clockReading(partner.clock, deps.realNow())).toISOString(),
      frozen: partner.clock.frozen_at_ms !== null,
    },
  });
  app.openapi(list, async (c) => {
    const query = c.req.valid('query');
    const callerId = c.get('partner').id;
    const pageQuery = { limit: query.limit, startingAfter: query.starting_after };
    const page = deps.partnerDirectory
      ? pageOfPartners(await deps.partnerDirectory.createdBy(callerId), pageQuery)
      : partnersCreatedBy(deps.store, callerId, pageQuery);
    return c.json({ data: page.data.map(view), has_more: page.has_more }, 200);
  });
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
      createdBy: c.get('partner').id,
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
