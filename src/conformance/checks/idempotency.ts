// Idempotency ("Idempotency rules" 1–6) on every operation the spec lists: a repeated key answers
// the first response without processing again, whatever the body; two requests racing with one
// key make one object; after 24 hours the key is processed anew.
import { isDeepStrictEqual } from 'node:util';
import { okBody } from '../context.js';
import { availableOffer, loanBody, simulate } from '../flows/credit.js';
import { activeCustomer, customerBody, registerCustomer, sharedActiveCustomer } from '../flows/customers.js';
import { documentForm } from '../flows/files.js';
import type { Answer, PartnerApi, RequestOptions } from '../http.js';
import type { Check, CheckContext } from '../types.js';
import { expectEqual, expectTrue, fail } from '../verdict.js';

const SPEC = 'Idempotency rules';

interface Operation {
  name: string;
  label: string;
  /** The path and two different bodies for one kit object (the second must not be processed). */
  prepare(
    ctx: CheckContext,
  ): Promise<{ path: string; first: () => RequestOptions; other: () => RequestOptions }>;
}

const json = (body: unknown) => () => ({ body });

const OPERATIONS: Operation[] = [
  {
    name: 'customers',
    label: 'POST /customers',
    async prepare(ctx) {
      return {
        path: '/customers',
        first: json(customerBody(ctx)),
        other: json(customerBody(ctx, { label: 'other' })),
      };
    },
  },
  {
    name: 'documents',
    label: 'POST /customers/{id}/documents',
    async prepare(ctx) {
      const customer = await registerCustomer(ctx);
      const types = (customer.body.kyc as Array<Record<string, unknown>>)
        .filter((i) => i.kind === 'document' && i.type !== 'biometrics')
        .map((i) => String(i.type));
      const [a, b] = [types[0] ?? 'selfie', types[1] ?? types[0] ?? 'selfie'];
      return {
        path: `/customers/${customer.id}/documents`,
        first: () => ({ body: documentForm(a) }),
        other: () => ({ body: documentForm(b) }),
      };
    },
  },
  {
    name: 'biometrics',
    label: 'POST /customers/{id}/biometrics',
    async prepare(ctx) {
      const customer = await registerCustomer(ctx);
      return { path: `/customers/${customer.id}/biometrics`, first: () => ({}), other: () => ({ body: {} }) };
    },
  },
  {
    name: 'simulations',
    label: 'POST /credit-offers/{id}/simulations',
    async prepare(ctx) {
      const offer = await availableOffer(ctx, (await sharedActiveCustomer(ctx)).id);
      const count = typeof offer.installments === 'number' ? offer.installments : offer.min_installments;
      return {
        path: `/credit-offers/${String(offer.id)}/simulations`,
        first: json({ requested_amount: String(offer.min_amount), installment_count: count }),
        other: json({ requested_amount: String(offer.approved_amount), installment_count: count }),
      };
    },
  },
  {
    name: 'loans',
    label: 'POST /loans',
    async prepare(ctx) {
      // Its own customer: a loan accepts the offer, which no other check may then use.
      const customer = await activeCustomer(ctx);
      const offer = await availableOffer(ctx, customer.id);
      const simulation = okBody(
        await simulate(await ctx.partner(), offer),
        'POST /credit-offers/{id}/simulations',
      );
      const body = loanBody(offer, simulation);
      return { path: '/loans', first: json(body), other: json({ ...body, installments_value: '0.01' }) };
    },
  },
  {
    name: 'credentials',
    label: 'POST /auth/credentials',
    async prepare(ctx) {
      const api = await ctx.partner();
      ctx.cleanup(() => revokeNamed(api, ctx.facts.runTag));
      return {
        path: '/auth/credentials',
        first: json({ name: ctx.externalId('idem') }),
        other: json({ name: ctx.externalId('idem-other') }),
      };
    },
  },
  {
    name: 'webhook-endpoints',
    label: 'POST /webhooks/endpoints',
    async prepare(ctx) {
      const hook = await ctx.webhook({ events: ['credit_offer.expired'] });
      const url = (hook.created.body as { url: string }).url;
      ctx.cleanup(() => deleteEndpointsAt(ctx, url));
      return {
        path: '/webhooks/endpoints',
        first: json({ url: `${url}?a`, events: ['loan.error'] }),
        other: json({ url: `${url}?b`, events: ['loan.finished'] }),
      };
    },
  },
  {
    name: 'secret-rotation',
    label: 'POST /webhooks/endpoints/{id}/secret/rotate',
    async prepare(ctx) {
      const hook = await ctx.webhook({ events: ['credit_offer.expired'] });
      return {
        path: `/webhooks/endpoints/${hook.id}/secret/rotate`,
        first: json({ expire_current_in: 3600 }),
        other: json({ expire_current_in: 60 }),
      };
    },
  },
];

/** Revokes the credentials this run created for the idempotency checks (their names carry the run tag). */
async function revokeNamed(api: PartnerApi, runTag: string): Promise<void> {
  const list = okBody(
    await api.call('GET', '/auth/credentials', { query: { limit: 100 } }),
    'GET /auth/credentials',
  );
  for (const item of list.data as Array<Record<string, unknown>>) {
    if (String(item.name ?? '').includes(runTag) && item.status === 'active') {
      await api.call('DELETE', `/auth/credentials/${encodeURIComponent(String(item.client_id))}`);
    }
  }
}

async function deleteEndpointsAt(ctx: CheckContext, url: string): Promise<void> {
  const api = await ctx.partner();
  const list = okBody(
    await api.call('GET', '/webhooks/endpoints', { query: { limit: 100 } }),
    'GET /webhooks/endpoints',
  );
  for (const item of list.data as Array<Record<string, unknown>>) {
    if (String(item.url).startsWith(url)) await api.call('DELETE', `/webhooks/endpoints/${String(item.id)}`);
  }
}

function send(api: PartnerApi, path: string, key: string, options: RequestOptions): Promise<Answer> {
  return api.call('POST', path, { ...options, headers: { ...options.headers, 'idempotency-key': key } });
}

function expectSameAnswer(first: Answer, again: Answer, what: string): void {
  expectEqual(again.status, first.status, `${what}: the status of the first response`, again);
  if (!isDeepStrictEqual(again.body, first.body))
    fail(
      `${what}: the body differs from the first response`,
      first.text.slice(0, 400),
      again.text.slice(0, 400),
      again,
    );
}

function firstOk(first: Answer, label: string): void {
  if (first.status < 200 || first.status > 299)
    fail(`${label} answered ${first.status}`, '2xx', first.text.slice(0, 300), first);
}

const perOperation = (
  rule: string,
  title: (op: Operation) => string,
  needs: Check['needs'],
  run: (ctx: CheckContext, op: Operation) => Promise<void>,
): Check[] =>
  OPERATIONS.map((op) => ({
    id: `idempotency.${op.name}.${rule}`,
    title: title(op),
    spec: SPEC,
    needs,
    run: (ctx) => run(ctx, op),
  }));

export const IDEMPOTENCY_CHECKS: Check[] = [
  ...perOperation(
    'replay',
    (op) => `${op.label}: the same Idempotency-Key again returns the first response`,
    'black-box',
    async (ctx, op) => {
      const { path, first } = await op.prepare(ctx);
      const api = await ctx.partner();
      const key = ctx.externalId('key');
      const a = await send(api, path, key, first());
      firstOk(a, op.label);
      expectSameAnswer(a, await send(api, path, key, first()), 'the repeated request');
    },
  ),
  ...perOperation(
    'body-ignored',
    (op) => `${op.label}: the same key with another body returns the first response`,
    'black-box',
    async (ctx, op) => {
      const { path, first, other } = await op.prepare(ctx);
      const api = await ctx.partner();
      const key = ctx.externalId('key');
      const a = await send(api, path, key, first());
      firstOk(a, op.label);
      expectSameAnswer(a, await send(api, path, key, other()), 'the same key with a different body');
    },
  ),
  ...perOperation(
    'concurrent',
    (op) => `${op.label}: two requests racing with one key get one response`,
    'black-box',
    async (ctx, op) => {
      const { path, first } = await op.prepare(ctx);
      const api = await ctx.partner();
      const key = ctx.externalId('key');
      const [a, b] = await Promise.all([send(api, path, key, first()), send(api, path, key, first())]);
      firstOk(a, op.label);
      expectSameAnswer(a, b, 'two concurrent requests with one key');
    },
  ),
  ...perOperation(
    'expiry',
    (op) => `${op.label}: after 24 hours the key is processed again`,
    'controlled',
    async (ctx, op) => {
      const { path, first } = await op.prepare(ctx);
      const api = await ctx.partner();
      const key = ctx.externalId('key');
      const a = await send(api, path, key, first());
      firstOk(a, op.label);
      await ctx.advance('86340s');
      expectSameAnswer(a, await send(api, path, key, first()), 'the key 23 h 59 min later');
      await ctx.advance('120s');
      const again = await send(api, path, key, first());
      expectTrue(
        again.status !== a.status || !isDeepStrictEqual(again.body, a.body),
        'the key 24 h 1 min later still returns the cached response',
        'a new response',
        'the first one',
        again,
      );
    },
  ),
  {
    id: 'idempotency.partner-scope',
    title: 'a key is cached per partner: the same key from another partner is processed',
    spec: `${SPEC} 1`,
    needs: 'controlled',
    async run(ctx) {
      const key = ctx.externalId('key');
      const mine = await send(await ctx.partner(), '/customers', key, { body: customerBody(ctx) });
      const theirs = await send(await ctx.otherPartner(), '/customers', key, {
        body: customerBody(ctx, { label: 'other' }),
      });
      firstOk(mine, 'POST /customers');
      expectEqual(theirs.status, 201, "the other partner's request with the same key is processed", theirs);
      expectTrue(
        (theirs.body as { id?: unknown }).id !== (mine.body as { id?: unknown }).id,
        'the other partner got the first partner’s customer',
        'a new customer',
        theirs.body,
        theirs,
      );
    },
  },
];
