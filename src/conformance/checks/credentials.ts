// Credentials (spec: "Credential (API key)", "Authentication endpoints", "Authentication" 5–7):
// created with a secret shown once, listed without it, revoked so that no new token is issued
// while the tokens issued before keep working.
import { okBody } from '../context.js';
import { registerCustomer } from '../flows/customers.js';
import { basicAuthorization, type PartnerApi } from '../http.js';
import type { Check, CheckContext } from '../types.js';
import { expectClientError, expectEqual, expectStatus, expectSuccess, expectTrue, fail } from '../verdict.js';

const SPEC = 'Authentication endpoints';

interface KitCredential {
  clientId: string;
  clientSecret: string;
  body: Record<string, unknown>;
}

/** A credential of the kit's own, revoked when the check ends. */
async function newCredential(
  ctx: CheckContext,
  api: PartnerApi,
  label = 'credential',
): Promise<KitCredential> {
  const answer = await api.call('POST', '/auth/credentials', { body: { name: ctx.externalId(label) } });
  expectSuccess(answer, 'POST /auth/credentials');
  const body = okBody(answer, 'POST /auth/credentials');
  const { client_id: clientId, client_secret: clientSecret } = body;
  if (typeof clientId !== 'string' || typeof clientSecret !== 'string') {
    fail(
      'the new credential has no `client_id` / `client_secret`',
      '{client_id, client_secret}',
      body,
      answer,
    );
  }
  ctx.cleanup(() => api.call('DELETE', `/auth/credentials/${encodeURIComponent(clientId)}`));
  return { clientId, clientSecret, body };
}

function tokenRequest(api: PartnerApi, clientId: string, clientSecret: string) {
  return api.raw('POST', '/auth/token', {
    authorization: basicAuthorization(clientId, clientSecret),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    raw: 'grant_type=client_credentials',
  });
}

async function listed(api: PartnerApi, clientId: string): Promise<Record<string, unknown> | undefined> {
  let after: string | undefined;
  for (let page = 0; page < 20; page++) {
    const answer = await api.call('GET', '/auth/credentials', {
      query: { limit: 100, starting_after: after },
    });
    const body = okBody(answer, 'GET /auth/credentials');
    const data = Array.isArray(body.data) ? (body.data as Array<Record<string, unknown>>) : [];
    const found = data.find((item) => item.client_id === clientId);
    if (found) return found;
    if (body.has_more !== true || data.length === 0) return undefined;
    after = String(data.at(-1)?.client_id);
  }
  return undefined;
}

async function revoke(api: PartnerApi, clientId: string): Promise<void> {
  expectSuccess(
    await api.call('DELETE', `/auth/credentials/${encodeURIComponent(clientId)}`),
    'DELETE /auth/credentials/{client_id}',
  );
}

export const CREDENTIAL_CHECKS: Check[] = [
  {
    id: 'auth.credentials.create',
    title: 'POST /auth/credentials creates a client id and a sandbox secret (svc_cs_test_)',
    spec: `${SPEC}; Authentication 5; Versioning`,
    needs: 'black-box',
    async run(ctx) {
      const { clientSecret } = await newCredential(ctx, await ctx.partner());
      expectTrue(
        clientSecret.startsWith('svc_cs_test_'),
        'a sandbox client secret does not carry svc_cs_test_',
        'svc_cs_test_…',
        `${clientSecret.slice(0, 12)}…`,
      );
    },
  },
  {
    id: 'auth.credentials.usable',
    title: 'a new credential obtains tokens that act for the same partner',
    spec: `${SPEC}; Authentication 6`,
    needs: 'black-box',
    async run(ctx) {
      const api = await ctx.partner();
      const credential = await newCredential(ctx, api);
      const customer = await registerCustomer(ctx);
      const token = okBody(
        await tokenRequest(api, credential.clientId, credential.clientSecret),
        'POST /auth/token',
      ).access_token;
      const theirs = await api.raw('GET', `/customers/${customer.id}`, {
        authorization: `Bearer ${String(token)}`,
      });
      expectStatus(
        theirs,
        200,
        "GET /customers/{id} of the partner's customer with a token of the new credential",
      );
      expectEqual(
        (theirs.body as { id?: unknown }).id,
        customer.id,
        'both credentials see the same partner',
        theirs,
      );
    },
  },
  {
    id: 'auth.credentials.list',
    title: 'GET /auth/credentials lists the credential (status active) in the list envelope',
    spec: `${SPEC}; Credential`,
    needs: 'black-box',
    async run(ctx) {
      const api = await ctx.partner();
      const { clientId } = await newCredential(ctx, api);
      const item = await listed(api, clientId);
      expectTrue(
        item !== undefined,
        'the new credential is not in GET /auth/credentials',
        clientId,
        'absent',
      );
      expectEqual(item.status, 'active', 'the new credential’s status');
    },
  },
  {
    id: 'auth.credentials.secret-once',
    title: 'the client secret is shown only at creation, never in the listing',
    spec: `${SPEC}; Authentication 7`,
    needs: 'black-box',
    async run(ctx) {
      const api = await ctx.partner();
      const { clientId, clientSecret } = await newCredential(ctx, api);
      const answer = await api.call('GET', '/auth/credentials', { query: { limit: 100 } });
      expectStatus(answer, 200, 'GET /auth/credentials');
      expectTrue(
        !answer.text.includes(clientSecret),
        'the listing shows a client secret',
        'no secret',
        'the secret of the new credential',
        answer,
      );
      const item = await listed(api, clientId);
      expectTrue(
        item !== undefined && !('client_secret' in item),
        'a listed credential has a `client_secret` field',
        'no client_secret',
        item,
      );
    },
  },
  {
    id: 'auth.credentials.revoke',
    title: 'DELETE /auth/credentials/{client_id} revokes it: listed as revoked',
    spec: `${SPEC}; States › Webhook endpoint and credential`,
    needs: 'black-box',
    async run(ctx) {
      const api = await ctx.partner();
      const { clientId } = await newCredential(ctx, api);
      await revoke(api, clientId);
      const item = await listed(api, clientId);
      expectTrue(
        item !== undefined,
        'a revoked credential is no longer listed',
        'listed with status revoked',
        'absent',
      );
      expectEqual(item.status, 'revoked', 'the revoked credential’s status');
    },
  },
  {
    id: 'auth.credentials.revoked-no-token',
    title: 'a revoked credential obtains no new token, at once',
    spec: `${SPEC}; Authentication 6`,
    needs: 'black-box',
    async run(ctx) {
      const api = await ctx.partner();
      const { clientId, clientSecret } = await newCredential(ctx, api);
      expectStatus(await tokenRequest(api, clientId, clientSecret), 200, 'a token before the revocation');
      await revoke(api, clientId);
      const answer = await tokenRequest(api, clientId, clientSecret);
      expectClientError(answer, 'a token for a revoked credential');
      expectTrue(
        !answer.text.includes('svc_at_'),
        'a revoked credential obtained a token',
        'no token',
        'an access token',
        answer,
      );
    },
  },
  {
    id: 'auth.credentials.revoked-earlier-token',
    title: 'tokens issued before a revocation keep working until they expire',
    spec: `${SPEC}; Authentication 6`,
    needs: 'black-box',
    async run(ctx) {
      const api = await ctx.partner();
      const { clientId, clientSecret } = await newCredential(ctx, api);
      const issued = okBody(await tokenRequest(api, clientId, clientSecret), 'POST /auth/token');
      await revoke(api, clientId);
      const answer = await api.raw('GET', '/customers', {
        authorization: `Bearer ${String(issued.access_token)}`,
        query: { limit: 1 },
      });
      expectStatus(answer, 200, 'GET /customers with a token issued before the revocation');
    },
  },
];
