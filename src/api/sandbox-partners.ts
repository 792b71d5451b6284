import { createRoute, z } from '@hono/zod-openapi';
import { ApiError } from '../domain/errors.js';
import { expiresAt, lifetimeEnd } from '../domain/partner-lifetime.js';
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
    "Each partner has its own data, clock, webhooks and event log; parallel CI jobs use one each so they never see each other. `expires_in` gives it a lifetime in seconds of real time (the sandbox's `--partner-ttl` when absent): at `expires_at` it is removed with all its data. Refused with 422 `partner_limit_reached` when the sandbox holds `--max-partners` partners.",
  request: { body: { required: false, content: { 'application/json': { schema: CreatePartnerBody } } } },
  responses: {
    201: json(NewPartnerSchema, 'The partner and its credential'),
    ...problemResponses(400, 403, 422, ...COMMON_ERRORS),
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

/** The API's view of a partner; its clock is read from the row (it may live on another instance). */
export function partnerView(partner: PartnerRecord, realNowMs: number) {
  return {
    id: partner.id,
    name: partner.name,
    created_at: partner.created_at,
    expires_at: expiresAt(partner),
    clock: {
      now: new Date(clockReading(partner.clock, realNowMs)).toISOString(),
      frozen: partner.clock.frozen_at_ms !== null,
    },
  };
}

export function sandboxPartnerRoutes(deps: AppDeps) {
  const app = createRouter();
  app.openapi(list, async (c) => {
    const query = c.req.valid('query');
    const callerId = c.get('partner').id;
    const pageQuery = { limit: query.limit, startingAfter: query.starting_after };
    const page = deps.partnerDirectory
      ? pageOfPartners(await deps.partnerDirectory.createdBy(callerId), pageQuery)
      : partnersCreatedBy(deps.store, callerId, pageQuery);
    const now = deps.realNow();
    return c.json({ data: page.data.map((p) => partnerView(p, now)), has_more: page.has_more }, 200);
  });
  app.openapi(create, async (c) => {
    if (deps.config.partnerSignup === false) {
      throw new ApiError(
        'partner_signup_disabled',
        'Creating partners is turned off on this sandbox (--partner-signup off). Use the credential its operator gave you.',
      );
    }
    const body = c.req.valid('json') ?? {};
    const max = deps.config.maxPartners;
    if (max !== undefined) {
      const held = deps.partnerDirectory ? await deps.partnerDirectory.count() : deps.store.partners.size;
      if (held >= max) {
        throw new ApiError(
          'partner_limit_reached',
          `This sandbox holds ${held} partners, its limit (--max-partners ${max}). Delete partners you no longer need (DELETE /v3/sandbox/partners/{partner_id}) or give new ones a short lifetime (expires_in), then retry.`,
        );
      }
    }
    const expiresIn = body.expires_in ?? deps.config.partnerTtlSeconds;
    const { partner, credential, secret } = createPartner(deps, {
      name: body.name ?? 'sandbox partner',
      clockMode: body.clock ?? deps.config.clockMode,
      createdBy: c.get('partner').id,
      expiresAtMs: expiresIn === undefined ? undefined : lifetimeEnd(deps.realNow(), expiresIn),
    });
    const clock = partnerClock(deps, partner.id);
    return c.json(
      {
        id: partner.id,
        name: partner.name,
        created_at: partner.created_at,
        expires_at: expiresAt(partner),
        clock: { now: clock.iso(), frozen: partner.clock.frozen_at_ms !== null },
        client_id: credential.id,
        client_secret: secret,
      },
      201,
    );
  });
  return app;
}
