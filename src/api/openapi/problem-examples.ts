import { ERROR_CATALOG, type ErrorCode } from '../../domain/errors.js';

/** The code an example of each status shows (the one a client meets most at that status). */
const TYPICAL: Record<number, ErrorCode> = {
  400: 'validation_failed',
  401: 'invalid_token',
  404: 'resource_not_found',
  405: 'method_not_allowed',
  409: 'customer_exists',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'invalid_cpf',
  429: 'rate_limited',
  500: 'internal_error',
};

const DETAILS: Partial<Record<ErrorCode, { detail: string; param?: string }>> = {
  validation_failed: {
    detail: 'installment_count: Expected number, received string.',
    param: 'installment_count',
  },
  invalid_token: {
    detail:
      'The bearer token was not issued by this sandbox (bad format, signature or algorithm). Request one from POST /v3/auth/token.',
  },
  resource_not_found: { detail: 'No customer cust_3f2a0c1d9b8e4f6a7c5d2e1b0a9f8e7d for this partner.' },
  customer_exists: {
    detail: 'A customer with cpf 52998224725 already exists: cust_3f2a0c1d9b8e4f6a7c5d2e1b0a9f8e7d.',
  },
  invalid_cpf: { detail: 'cpf 12345678900 has invalid check digits.', param: 'cpf' },
  rate_limited: {
    detail: 'More than 100 requests per second for this partner; retry after Retry-After seconds.',
  },
  internal_error: { detail: 'The sandbox failed unexpectedly; the error was logged. It is safe to retry.' },
};

/** A realistic problem+json body for an error status, with the right `status`, `code` and `type`. */
export function problemExample(status: number, publicUrl: string): Record<string, unknown> {
  const code =
    TYPICAL[status] ??
    (Object.keys(ERROR_CATALOG) as ErrorCode[]).find((c) => ERROR_CATALOG[c].status === status) ??
    'internal_error';
  const entry = ERROR_CATALOG[code];
  const known = DETAILS[code];
  return {
    type: `${publicUrl}/problems/${code}`,
    title: entry.title,
    status: entry.status,
    detail: known?.detail ?? entry.help.replaceAll('`', ''),
    instance: '/v3/customers/cust_3f2a0c1d9b8e4f6a7c5d2e1b0a9f8e7d',
    code,
    ...(known?.param !== undefined && { param: known.param }),
  };
}
