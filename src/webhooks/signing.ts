import { createHmac } from 'node:crypto';

/** Endpoint secrets are `whsec_` + base64, the form Standard Webhooks libraries accept. */
export const SECRET_PREFIX = 'whsec_';
/** Random bytes behind each secret (Standard Webhooks asks for 24 to 64). */
export const SECRET_BYTES = 24;

/** A new endpoint secret from the given random bytes. */
export function formatSecret(bytes: Buffer): string {
  return `${SECRET_PREFIX}${bytes.toString('base64')}`;
}

/**
 * The `webhook-signature` header: one `v1,<base64>` per secret, space-separated (during a rotation
 * grace period the new secret's first, then the previous one's). Each is Standard Webhooks' v1:
 * base64 of HMAC-SHA256 over `<msgId>.<unix seconds>.<payload>` with the base64-decoded secret —
 * computed with node:crypto, which costs a tenth of the `standardwebhooks` package's pure-JS
 * SHA-256 per delivery (tests check the two agree).
 */
export function signatureHeader(
  secrets: readonly string[],
  msgId: string,
  timestamp: Date,
  payload: string,
): string {
  const signed = `${msgId}.${Math.floor(timestamp.getTime() / 1000)}.${payload}`;
  let header = '';
  for (const secret of secrets) {
    const signature = createHmac('sha256', signingKey(secret)).update(signed).digest('base64');
    header += header === '' ? `v1,${signature}` : ` v1,${signature}`;
  }
  return header;
}

// Decoding the key per delivery is wasted work: keep the keys of recently used secrets.
const keys = new Map<string, Buffer>();
const MAX_KEYS = 1000;

function signingKey(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size >= MAX_KEYS) keys.clear();
    const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
    key = Buffer.from(encoded, 'base64');
    keys.set(secret, key);
  }
  return key;
}
