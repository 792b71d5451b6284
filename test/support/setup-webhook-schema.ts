import { afterAll, afterEach } from 'vitest';
import { drainWebhookViolations } from './webhook-violations.js';

// Every delivery a test received was checked against the OpenAPI `webhooks` schema (see
// webhook-schema.ts); any mismatch fails the test that received it.
function failOnViolations(): void {
  const violations = drainWebhookViolations();
  if (violations.length > 0) throw new Error(violations.join('\n'));
}
afterEach(failOnViolations);
afterAll(failOnViolations);
