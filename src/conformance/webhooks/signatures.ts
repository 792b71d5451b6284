// Standard Webhooks verification with the `standardwebhooks` package: a delivery is authentic when
// one of the signatures in `webhook-signature` is the HMAC of `<id>.<timestamp>.<body>` with the
// endpoint's secret, within the library's timestamp tolerance.
import { Webhook } from 'standardwebhooks';
import type { Delivery } from './listener.js';

/** The space-separated signatures of the `webhook-signature` header (`v1,<base64>` each). */
export function signaturesOf(delivery: Delivery): string[] {
  return (delivery.headers['webhook-signature'] ?? '').split(' ').filter((part) => part !== '');
}

/** Whether `secret` verifies the delivery (any of its signatures). */
export function verifies(secret: string, delivery: Delivery, signature?: string): boolean {
  const headers = {
    'webhook-id': delivery.headers['webhook-id'] ?? '',
    'webhook-timestamp': delivery.headers['webhook-timestamp'] ?? '',
    'webhook-signature': signature ?? delivery.headers['webhook-signature'] ?? '',
  };
  try {
    new Webhook(secret).verify(delivery.raw, headers);
    return true;
  } catch {
    return false;
  }
}

/** For each secret, whether some signature of the delivery, on its own, verifies with it. */
export function secretsVerifying(secrets: readonly string[], delivery: Delivery): boolean[] {
  const signatures = signaturesOf(delivery);
  return secrets.map((secret) => signatures.some((signature) => verifies(secret, delivery, signature)));
}
