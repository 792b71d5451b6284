import { Webhook } from 'standardwebhooks';

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
 * grace period the new secret's first, then the previous one's).
 */
export function signatureHeader(
  secrets: readonly string[],
  msgId: string,
  timestamp: Date,
  payload: string,
): string {
  return secrets.map((secret) => signer(secret).sign(msgId, timestamp, payload)).join(' ');
}

// Decoding the key per delivery is wasted work: keep the signer of recently used secrets.
const signers = new Map<string, Webhook>();
const MAX_SIGNERS = 1000;

function signer(secret: string): Webhook {
  let webhook = signers.get(secret);
  if (!webhook) {
    if (signers.size >= MAX_SIGNERS) signers.clear();
    webhook = new Webhook(secret);
    signers.set(secret, webhook);
  }
  return webhook;
}
