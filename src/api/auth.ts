import { createRoute, z } from '@hono/zod-openapi';
import { issueAccessToken } from '../domain/access-tokens.js';
import { credentialView, issueCredential, revokeCredential } from '../domain/credentials.js';
import { ApiError } from '../domain/errors.js';
import { paginate } from '../domain/pagination.js';
import type { AppDeps } from '../http/deps.js';
import { sendJson } from '../http/json-text.js';
import { createRouter } from '../http/router.js';
import { listText, viewText } from '../lib/view-text.js';
import { domainContext } from './context.js';
import {
  CreateCredentialBody,
  CredentialSchema,
  NewCredentialSchema,
  TokenRequestSchema,
  TokenResponseSchema,
} from './schemas/auth.js';
import {
  COMMON_ERRORS,
  IdempotencyHeader,
  json,
  listOf,
  PageQuery,
  problemResponses,
} from './schemas/common.js';

/** A credential's JSON (never its secret), serialised once per row version. */
const credentialJson = viewText(credentialView);

const issueToken = createRoute({
  method: 'post',
  path: '/auth/token',
  operationId: 'createAccessToken',
  tags: ['Authentication'],
  summary: 'Issue an access token (OAuth 2.0 client credentials)',
  description:
    'Authenticate with `Authorization: Basic base64(client_id:client_secret)`. The body may be empty, or carry `grant_type=client_credentials` as a form or JSON. The token lives 3600 s of the partner clock.',
  security: [{ basicAuth: [] }],
  request: {
    body: {
      required: false,
      content: {
        'application/x-www-form-urlencoded': { schema: TokenRequestSchema },
        'application/json': { schema: TokenRequestSchema },
      },
    },
  },
  responses: { 200: json(TokenResponseSchema, 'Access token'), ...problemResponses(400, ...COMMON_ERRORS) },
});

const createCredential = createRoute({
  method: 'post',
  path: '/auth/credentials',
  operationId: 'createCredential',
  tags: ['Authentication'],
  summary: 'Create a credential (client_id + client_secret)',
  request: {
    headers: IdempotencyHeader,
    body: { required: true, content: { 'application/json': { schema: CreateCredentialBody } } },
  },
  responses: {
    201: json(NewCredentialSchema, 'The credential; the secret is shown only here'),
    ...problemResponses(400, ...COMMON_ERRORS),
  },
});

const listCredentials = createRoute({
  method: 'get',
  path: '/auth/credentials',
  operationId: 'listCredentials',
  tags: ['Authentication'],
  summary: "List the partner's credentials (never the secrets), newest first",
  request: { query: PageQuery },
  responses: {
    200: json(listOf(CredentialSchema, 'CredentialList'), 'Credentials'),
    ...problemResponses(400, ...COMMON_ERRORS),
  },
});

const revoke = createRoute({
  method: 'delete',
  path: '/auth/credentials/{client_id}',
  operationId: 'revokeCredential',
  tags: ['Authentication'],
  summary: 'Revoke a credential (immediate, irreversible; issued tokens live until they expire)',
  request: { params: z.object({ client_id: z.string() }) },
  responses: {
    200: json(CredentialSchema, 'The revoked credential'),
    ...problemResponses(404, ...COMMON_ERRORS),
  },
});

export function authRoutes(deps: AppDeps) {
  const app = createRouter();

  app.openapi(issueToken, async (c) => {
    assertClientCredentialsGrant(c.req.header('content-type'), await c.req.text());
    const credential = deps.store.credentials.get(c.get('clientId'));
    if (!credential) throw new ApiError('invalid_client', 'Unknown client_id.');
    const key = Buffer.from(deps.store.meta.signing_key, 'base64url');
    const token = issueAccessToken(
      credential,
      c.get('clock'),
      key,
      deps.engine.stream(credential.partner_id).ids('jti_'),
    );
    c.header('Cache-Control', 'no-store');
    return c.json(token, 200);
  });

  app.openapi(createCredential, (c) => {
    const { name } = c.req.valid('json');
    const { row, secret } = issueCredential(domainContext(deps, c), name);
    return c.json(
      {
        client_id: row.id,
        client_secret: secret,
        name: row.name,
        status: 'active' as const,
        created_at: row.created_at,
      },
      201,
    );
  });

  app.openapi(listCredentials, (c) => {
    const { limit, starting_after } = c.req.valid('query');
    const page = paginate(
      deps.store.credentialsByPartner,
      c.get('partner').id,
      { limit, order: 'desc', startingAfter: starting_after },
      (id) => deps.store.partnerCredential(c.get('partner').id, id),
    );
    return sendJson(c, listText(page.data.map(credentialJson), page.has_more), 200);
  });

  app.openapi(revoke, (c) => {
    const row = revokeCredential(domainContext(deps, c), c.req.valid('param').client_id);
    return sendJson(c, credentialJson(row), 200);
  });

  return app;
}

/** The token body is optional; when present, grant_type must be client_credentials. */
function assertClientCredentialsGrant(contentType: string | undefined, text: string): void {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase();
  if (text.trim() === '') return;
  let grantType: unknown;
  if (type === 'application/json') {
    try {
      grantType = (JSON.parse(text) as { grant_type?: unknown } | null)?.grant_type;
    } catch {
      throw new ApiError('malformed_json', 'The token request body is not valid JSON.');
    }
  } else {
    grantType = new URLSearchParams(text).get('grant_type') ?? undefined;
  }
  if (grantType !== undefined && grantType !== 'client_credentials') {
    throw new ApiError(
      'unsupported_grant_type',
      `grant_type "${String(grantType)}" is not supported; use client_credentials.`,
      {
        param: 'grant_type',
      },
    );
  }
}
