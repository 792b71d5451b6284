import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks signature verification (https://www.standardwebhooks.com), written from the
 * specification with node:crypto: the signed content is `{webhook-id}.{webhook-timestamp}.{body}`,
 * the key the base64 after `whsec_`, the signature `v1,` + base64(HMAC-SHA256). A delivery may
 * carry several space-separated signatures (a secret rotation) and the proxy may know several
 * secrets; one match of any with any verifies it. The timestamp must lie within five minutes of
 * now, which stops replays.
 */

export const TIMESTAMP_TOLERANCE_S = 5 * 60;

export type SignatureVerdict = { valid: true; secretIndex: number } | { valid: false; reason: string };

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
}

/** Verifies one delivery (headers lower case) against the known secrets. */
export function verifySignature(
  secrets: readonly string[],
  headers: Readonly<Record<string, string | undefined>>,
  body: Buffer,
  nowMs: number,
): SignatureVerdict {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signature = headers['webhook-signature'];
  if (!id || !timestamp || !signature) {
    const missing = ['webhook-id', 'webhook-timestamp', 'webhook-signature'].filter((name) => !headers[name]);
    return { valid: false, reason: `no ${missing.join(', ')} header` };
  }
  if (!/^\d{1,12}$/.test(timestamp))
    return { valid: false, reason: `webhook-timestamp ${JSON.stringify(timestamp)} is not seconds` };
  const skew = Math.abs(nowMs / 1000 - Number(timestamp));
  if (skew > TIMESTAMP_TOLERANCE_S)
    return {
      valid: false,
      reason: `webhook-timestamp is ${Math.round(skew)} s away from now (tolerance ${TIMESTAMP_TOLERANCE_S} s)`,
    };
  if (secrets.length === 0)
    return { valid: false, reason: 'no webhook secret known (give --webhook-secret)' };
  const given = signature
    .split(' ')
    .filter((part) => part.startsWith('v1,'))
    .map((part) => Buffer.from(part.slice(3), 'base64'));
  if (given.length === 0) return { valid: false, reason: 'no v1 signature in webhook-signature' };
  const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`), body]);
  for (const [index, secret] of secrets.entries()) {
    const expected = createHmac('sha256', keyOf(secret)).update(signed).digest();
    if (
      given.some((candidate) => candidate.length === expected.length && timingSafeEqual(candidate, expected))
    ) {
      return { valid: true, secretIndex: index };
    }
  }
  return {
    valid: false,
    reason: `no signature matches any of the ${secrets.length} known secret${secrets.length === 1 ? '' : 's'}`,
  };
}
