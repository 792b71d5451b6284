// Webhook endpoints ("Webhook endpoint", "Endpoints › Webhook endpoints", "Events"): CRUD, the
// secret shown only on create and rotate, patterns, pausing, and Standard Webhooks signatures —
// two of them during a rotation's grace period.
import { okBody } from '../context.js';
import { registerCustomer } from '../flows/customers.js';
import { WebhookEndpoint, WebhookSecret } from '../spec/shapes.js';
import { expectShape } from '../spec/validate.js';
import type { Check, CheckContext } from '../types.js';
import { expectEqual, expectStatus, expectSuccess, expectTrue } from '../verdict.js';
import type { Hook } from '../webhooks/hook.js';

const SPEC = 'Endpoints › Webhook endpoints';

/** A customer.created delivered to `hook` for a new customer of the check. */
export async function delivered(ctx: CheckContext, hook: Hook) {
  const customer = await registerCustomer(ctx, { label: 'hook' });
  return hook.waitForType('customer.created', customer.id);
}

export const WEBHOOK_CHECKS: Check[] = [
  {
    id: 'webhooks.endpoints.create',
    title: 'POST /webhooks/endpoints answers the endpoint (we_…, active) with its whsec_ secret',
    spec: `${SPEC}; Resources › Webhook endpoint`,
    needs: 'black-box',
    async run(ctx) {
      const hook = await ctx.webhook({
        events: ['customer.*', 'loan.active'],
        description: 'conformance create',
      });
      const endpoint = expectShape(WebhookEndpoint, hook.created.body, 'WebhookEndpoint', hook.created);
      expectShape(WebhookSecret, (hook.created.body as { secret?: unknown }).secret, 'secret', hook.created);
      expectEqual(endpoint.status, 'active', 'status of a new endpoint', hook.created);
      expectEqual(endpoint.events, ['customer.*', 'loan.active'], 'events as sent', hook.created);
      expectEqual(endpoint.description, 'conformance create', 'description as sent', hook.created);
    },
  },
  {
    id: 'webhooks.endpoints.get',
    title: 'GET /webhooks/endpoints/{id} answers the endpoint without its secret',
    spec: `${SPEC} › GET /webhooks/endpoints/{webhook_endpoint_id}`,
    needs: 'black-box',
    async run(ctx) {
      const hook = await ctx.webhook({ events: ['loan.error'] });
      const answer = await (await ctx.partner()).call('GET', `/webhooks/endpoints/${hook.id}`);
      expectStatus(answer, 200, 'GET /webhooks/endpoints/{id}');
      const body = expectShape(WebhookEndpoint, answer.body, 'WebhookEndpoint', answer);
      expectTrue(
        !('secret' in body) && !answer.text.includes(hook.secret),
        'the endpoint is shown with its secret',
        'no secret',
        'secret',
        answer,
      );
    },
  },
  {
    id: 'webhooks.endpoints.list',
    title: 'GET /webhooks/endpoints lists endpoints without secrets',
    spec: `${SPEC} › GET /webhooks/endpoints`,
    needs: 'black-box',
    async run(ctx) {
      const hook = await ctx.webhook({ events: ['loan.error'] });
      const answer = await (await ctx.partner()).call('GET', '/webhooks/endpoints', {
        query: { limit: 100 },
      });
      const data = okBody(answer, 'GET /webhooks/endpoints').data as Array<Record<string, unknown>>;
      expectTrue(
        data.some((item) => item.id === hook.id),
        'the new endpoint is not listed',
        hook.id,
        data.map((item) => item.id),
        answer,
      );
      expectTrue(
        data.every((item) => !('secret' in item)) && !answer.text.includes('whsec_'),
        'the list shows secrets',
        'no secret',
        'secret',
        answer,
      );
    },
  },
  {
    id: 'webhooks.endpoints.update',
    title: 'PATCH updates only the fields sent',
    spec: `${SPEC} › PATCH /webhooks/endpoints/{webhook_endpoint_id}`,
    needs: 'black-box',
    async run(ctx) {
      const hook = await ctx.webhook({ events: ['loan.error'], description: 'before' });
      const answer = await (await ctx.partner()).call('PATCH', `/webhooks/endpoints/${hook.id}`, {
        body: { description: 'after' },
      });
      expectStatus(answer, 200, 'PATCH /webhooks/endpoints/{id}');
      const body = expectShape(WebhookEndpoint, answer.body, 'WebhookEndpoint', answer);
      const before = hook.created.body as Record<string, unknown>;
      expectEqual(body.description, 'after', 'the description sent', answer);
      expectEqual(body.url, before.url, 'url, not sent', answer);
      expectEqual(body.events, before.events, 'events, not sent', answer);
      expectEqual(body.status, 'active', 'status, not sent', answer);
    },
  },
  {
    id: 'webhooks.endpoints.disable',
    title: 'a disabled endpoint receives nothing until it is active again',
    spec: 'States › Webhook endpoint and credential',
    needs: 'black-box',
    async run(ctx) {
      const hook = await ctx.webhook({ events: ['customer.created'] });
      const api = await ctx.partner();
      const off = await api.call('PATCH', `/webhooks/endpoints/${hook.id}`, { body: { status: 'disabled' } });
      expectEqual(
        okBody(off, 'PATCH status disabled').status,
        'disabled',
        'status after PATCH {status: disabled}',
        off,
      );
      const quiet = await registerCustomer(ctx, { label: 'while-disabled' });
      const on = await api.call('PATCH', `/webhooks/endpoints/${hook.id}`, { body: { status: 'active' } });
      expectEqual(
        okBody(on, 'PATCH status active').status,
        'active',
        'status after PATCH {status: active}',
        on,
      );
      await delivered(ctx, hook);
      const leaked = hook.about(quiet.id);
      expectEqual(
        leaked.map((e) => e.type),
        [],
        'deliveries for an event that happened while the endpoint was disabled',
      );
    },
  },
  {
    id: 'webhooks.endpoints.delete',
    title: 'DELETE removes the endpoint: it is then unknown (404)',
    spec: `${SPEC} › DELETE /webhooks/endpoints/{webhook_endpoint_id}`,
    needs: 'black-box',
    async run(ctx) {
      const hook = await ctx.webhook({ events: ['loan.error'] });
      const api = await ctx.partner();
      expectSuccess(
        await api.call('DELETE', `/webhooks/endpoints/${hook.id}`),
        'DELETE /webhooks/endpoints/{id}',
      );
      expectStatus(await api.call('GET', `/webhooks/endpoints/${hook.id}`), 404, 'GET of a deleted endpoint');
    },
  },
  {
    id: 'webhooks.endpoints.all-events',
    title: 'an endpoint created without events receives every event',
    spec: `${SPEC} › POST /webhooks/endpoints (empty or omitted means all events)`,
    needs: 'black-box',
    async run(ctx) {
      await delivered(ctx, await ctx.webhook());
    },
  },
  {
    id: 'webhooks.endpoints.patterns',
    title: 'patterns select events: * , <resource>.* and exact names',
    spec: 'Events › Patterns',
    needs: 'black-box',
    async run(ctx) {
      const star = await ctx.webhook({ events: ['*'] });
      const resource = await ctx.webhook({ events: ['customer.*'] });
      const exact = await ctx.webhook({ events: ['customer.created'] });
      const other = await ctx.webhook({ events: ['credit_offer.*'] });
      const customer = await registerCustomer(ctx, { label: 'patterns' });
      await star.waitForType('customer.created', customer.id);
      await resource.waitForType('customer.created', customer.id);
      await exact.waitForType('customer.created', customer.id);
      expectEqual(
        other.about(customer.id).map((e) => e.type),
        [],
        'customer events delivered to a credit_offer.* endpoint',
      );
      expectTrue(
        exact.events().every((e) => e.type === 'customer.created'),
        'an endpoint for customer.created got other events',
        'customer.created only',
        exact.events().map((e) => e.type),
      );
    },
  },
];
