/**
 * Deliveries that did not match their OpenAPI `webhooks` schema, collected wherever a test
 * receives one (the shared receiver, in-process senders) and failed by the setup file after each
 * test. Kept apart from the validator so the setup file loads nothing heavy.
 */
const violations: string[] = [];

export function reportWebhookViolation(message: string): void {
  violations.push(message);
}

export function drainWebhookViolations(): string[] {
  return violations.splice(0);
}
