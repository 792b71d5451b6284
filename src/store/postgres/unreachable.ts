/** Node's codes for a connection that could not be made or was lost. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/**
 * Whether a database error means PostgreSQL cannot be reached or cannot store anything now (as
 * opposed to refusing these particular rows): no connection, a connection lost, the server
 * shutting down or starting (SQLSTATE class 08 and 57P0x), out of disk, memory or connections
 * (class 53). Writes then answer `storage_unavailable` until it is back.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  const { code, message, errors } = (error ?? {}) as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code)) return true;
    if (/^(08|53)|^57P0/.test(code)) return true;
  }
  // A connect to several addresses (localhost: ::1 and 127.0.0.1) fails as an AggregateError.
  if (Array.isArray(errors) && errors.some(isDatabaseUnreachable)) return true;
  return (
    typeof message === 'string' &&
    /^Connection terminated|^timeout exceeded when trying to connect|has encountered a connection error and is not queryable/.test(
      message,
    )
  );
}

/** "PostgreSQL cannot be reached (connect ECONNREFUSED 127.0.0.1:5432)", for people. */
export function describeDatabaseError(error: unknown): string {
  const { code, message, errors } = (error ?? {}) as { code?: unknown; message?: unknown; errors?: unknown };
  const first = Array.isArray(errors) ? (errors[0] as { message?: unknown } | undefined) : undefined;
  const text = typeof message === 'string' && message ? message : String(first?.message ?? code ?? error);
  return `PostgreSQL cannot be reached (${text})`;
}
