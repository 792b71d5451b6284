/** Error codes of authentication: tokens, client credentials and partner sign-up. */
import type { ErrorCatalogEntry } from './error-catalog-entry.js';

export const AUTH_ERRORS = {
  unsupported_grant_type: {
    status: 400,
    title: 'Unsupported grant type',
    help: 'The token endpoint only supports `grant_type=client_credentials` (or no body at all).',
  },
  authentication_required: {
    status: 401,
    title: 'Authentication required',
    help: 'Send `Authorization: Bearer <access_token>`. Obtain a token from `POST /v3/auth/token` with HTTP Basic `client_id:client_secret`.',
  },
  invalid_token: {
    status: 401,
    title: 'Invalid access token',
    help: 'The bearer token is not one this sandbox issued (bad format, bad signature or unsupported algorithm). Request a new token from `POST /v3/auth/token`.',
  },
  token_expired: {
    status: 401,
    title: 'Access token expired',
    help: 'Access tokens live 3600 seconds of the partner clock. Advancing the clock past `exp` expires them too: request a new token.',
  },
  invalid_client: {
    status: 401,
    title: 'Invalid client credentials',
    help: 'The HTTP Basic credentials are unknown, malformed or revoked. Check `client_id` and `client_secret`, or create a new credential.',
  },
  partner_expired: {
    status: 401,
    title: 'Partner expired',
    help: "The partner these credentials or this token belong to reached the end of its lifetime (`expires_at`, set by `expires_in` or the sandbox's `--partner-ttl`) and was removed with all its data. Create a new partner (`POST /v3/sandbox/partners`), with a longer `expires_in` if you need it, or extend a partner before it expires (`PATCH /v3/sandbox/partners/{partner_id}`).",
  },
  partner_deleted: {
    status: 401,
    title: 'Partner deleted',
    help: 'The partner these credentials or this token belong to was deleted (`DELETE /v3/sandbox/partners/{partner_id}`) with all its data. Create a new partner (`POST /v3/sandbox/partners`).',
  },
  partner_signup_disabled: {
    status: 403,
    title: 'Partner sign-up is turned off',
    help: 'This sandbox was started with `--partner-signup off`: its operator creates partners. Use the credential you were given, or ask the operator for one.',
  },
} as const satisfies Record<string, ErrorCatalogEntry>;
