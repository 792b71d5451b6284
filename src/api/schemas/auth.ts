import { z } from '@hono/zod-openapi';
import { DateTime } from './common.js';

export const TokenResponseSchema = z
  .object({
    access_token: z.string().openapi({ example: 'svc_at_eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.e30.sig' }),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().openapi({ example: 3600 }),
  })
  .openapi('AccessToken');

export const TokenRequestSchema = z
  // Any string parses; the handler answers 400 unsupported_grant_type for anything but client_credentials.
  .object({ grant_type: z.string().optional().openapi({ example: 'client_credentials' }) })
  .openapi('TokenRequest');

export const CredentialSchema = z
  .object({
    client_id: z.string(),
    name: z.string().openapi({ example: 'ci-pipeline' }),
    status: z.enum(['active', 'revoked']),
    created_at: DateTime,
    revoked_at: DateTime.nullable(),
  })
  .openapi('Credential');

export const NewCredentialSchema = z
  .object({
    client_id: z.string(),
    client_secret: z.string().openapi({
      description: 'Shown only in this response',
      example: 'svc_cs_test_Jx8Qm2Lr5Tz0Wv7Yb3Nc6Hd9Kf4Gs1Pa',
    }),
    name: z.string().openapi({ example: 'ci-pipeline' }),
    status: z.literal('active'),
    created_at: DateTime,
  })
  .openapi('NewCredential');

export const CreateCredentialBody = z
  .object({ name: z.string().min(1).max(200).openapi({ example: 'ci-pipeline' }) })
  .openapi('CreateCredentialRequest');
