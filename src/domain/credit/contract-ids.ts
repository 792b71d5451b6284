import type { RandomBytes } from '../../lib/ids.js';

/** ISPB of the (fictitious) sandbox institution that originates the pix transfers. */
export const SANDBOX_ISPB = '99999999';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A pix end-to-end id in the Central Bank's format (32 characters): `E`, the payer's 8-digit ISPB,
 * the initiation time as yyyyMMddHHmm (UTC), and 11 alphanumeric characters.
 */
export function pixEndToEndId(initiatedAtMs: number, randomBytes: RandomBytes): string {
  const stamp = new Date(initiatedAtMs).toISOString().replace(/[-:T]/g, '').slice(0, 12);
  const suffix = [...randomBytes(11)].map((byte) => ALPHANUMERIC[byte % ALPHANUMERIC.length]).join('');
  return `E${SANDBOX_ISPB}${stamp}${suffix}`;
}

/** The CCB (cédula de crédito bancário) number: issue date and the loan's own digits. */
export function ccbNumber(loanId: string, issuedAtMs: number): string {
  const date = new Date(issuedAtMs).toISOString().slice(0, 10).replaceAll('-', '');
  return `CCB-${date}-${loanId.slice(-10).toUpperCase()}`;
}

/** The unguessable token that authorizes the hosted signing page of one loan. */
export function signingToken(randomBytes: RandomBytes): string {
  return randomBytes(24).toString('base64url');
}

/** Where the hosted contract pages live (outside /v3: a person opens them in a browser). */
export const HOSTED_CONTRACTS_PATH = '/hosted/contracts';

/** The hosted contract page of a loan. */
export function signingUrl(publicUrl: string, loanId: string, token: string): string {
  return `${publicUrl.replace(/\/$/, '')}${HOSTED_CONTRACTS_PATH}/${loanId}/${token}`;
}
