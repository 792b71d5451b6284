import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { ApiError } from '../domain/errors.js';
import { managedPartner, removePartner, setLifetime } from '../domain/partner-lifetime.js';
import type { AppDeps } from '../http/deps.js';
import type { AppEnv } from '../http/env.js';
import { createRouter } from '../http/router.js';
import { flushFor, WriteFailedError } from '../store/persistence.js';
import { partnerView } from './sandbox-partners.js';
import { COMMON_ERRORS, json, problemResponses } from './schemas/common.js';
import { PartnerIdParam, PartnerSchema, UpdatePartnerBody } from './schemas/sandbox.js';

const WHO =
  'Allowed to the partner itself and to the partner that created it (`POST /sandbox/partners`); any other partner gets 404. The default partner lives as long as the sandbox (403 `partner_protected`).';

const update = createRoute({
  method: 'patch',
  path: '/sandbox/partners/{partner_id}',
  operationId: 'updateSandboxPartner',
  tags: ['Sandbox control'],
  summary: "Extend a partner's lifetime",
  description: `Sets \`expires_at\` to now + \`expires_in\` seconds of real time. ${WHO}`,
  request: {
    params: PartnerIdParam,
    body: { required: true, content: { 'application/json': { schema: UpdatePartnerBody } } },
  },
  responses: {
    200: json(PartnerSchema, 'The partner with its new lifetime'),
    ...problemResponses(400, 403, 404, ...COMMON_ERRORS),
  },
});

const remove = createRoute({
  method: 'delete',
  path: '/sandbox/partners/{partner_id}',
  operationId: 'deleteSandboxPartner',
  tags: ['Sandbox control'],
  summary: 'Delete a partner and all its data, at once',
  description: `Removes the partner with everything it holds (customers to loans, events, jobs, webhook endpoints and deliveries queued or in flight, fault rules, snapshots, request log, idempotency keys, credentials) in one step: a crash half-way leaves it whole or gone. From then on its credentials and tokens answer 401 \`partner_deleted\`. ${WHO}`,
  request: { params: PartnerIdParam },
  responses: {
    204: { description: 'Deleted' },
    ...problemResponses(403, 404, ...COMMON_ERRORS),
  },
});

export function sandboxPartnerLifetimeRoutes(deps: AppDeps) {
  const app = createRouter();

  /**
   * The target partner in this instance's memory, or the answer of the instance that holds it
   * (shared mode). Checked first: only the partner itself or its creator may act on it.
   */
  const target = async (c: Context<AppEnv>, id: string, body?: string) => {
    const caller = c.get('partner').id;
    const directory = deps.partnerDirectory;
    const found = deps.store.partners.get(id) ?? (await directory?.get(id));
    const partner = managedPartner(deps.store, caller, id, found);
    if (!directory || deps.store.partners.get(id)) return { partner };
    // The body was read here: the instance holding the partner gets it as validated.
    const elsewhere = await directory.bring(id, c.req.raw, body);
    return elsewhere ? { answer: elsewhere } : { partner: managedPartner(deps.store, caller, id) };
  };

  app.openapi(update, async (c) => {
    const { partner_id } = c.req.valid('param');
    const { expires_in } = c.req.valid('json');
    const found = await target(c, partner_id, JSON.stringify({ expires_in }));
    if (found.answer) return found.answer as never;
    const now = deps.realNow();
    const updated = setLifetime(deps.store, found.partner, expires_in, now);
    return c.json(partnerView(updated, now), 200);
  });

  app.openapi(remove, async (c) => {
    const { partner_id } = c.req.valid('param');
    const found = await target(c, partner_id);
    if (found.answer) return found.answer as never;
    removePartner(deps.store, found.partner.id, 'deleted', deps.realNow());
    await flushRemoval(deps, found.partner.id);
    return c.body(null, 204);
  });

  return app;
}

/** Waits until the removal is durable; one the database refused answers 503 (nothing was removed). */
async function flushRemoval(deps: AppDeps, partnerId: string): Promise<void> {
  try {
    await flushFor(deps.persistence, partnerId);
  } catch (error) {
    if (!(error instanceof WriteFailedError)) throw error;
    deps.log.error(`the removal of partner ${partnerId} was refused by the database`, error);
    throw new ApiError(
      'write_failed',
      `Partner ${partnerId} could not be removed: the database refused the change, and nothing of it was removed. Retry.`,
    );
  }
}
