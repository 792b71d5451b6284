import { buildOpenApiDocument } from '../../src/api/openapi/document.js';
import { OpenApiValidator, pointer } from './openapi-validator.js';
import { createTestSandbox } from './sandbox.js';
import { reportWebhookViolation } from './webhook-violations.js';

let validator: OpenApiValidator | undefined;

/** The document every sandbox serves (its schemas do not depend on the configuration). */
function documentValidator(): OpenApiValidator {
  validator ??= new OpenApiValidator(
    buildOpenApiDocument(createTestSandbox().app, 'http://sandbox.test') as Record<string, unknown>,
  );
  return validator;
}

const webhookRef = (type: string) =>
  pointer('webhooks', type, 'post', 'requestBody', 'content', 'application/json', 'schema');

/**
 * Builds the validator and compiles every webhook schema now, so the first delivery a receiver
 * gets is not slowed (a receiver that answers late is retried and would change what a test sees).
 */
export function warmWebhookSchemas(): void {
  const doc = documentValidator();
  for (const type of Object.keys((doc.document.webhooks ?? {}) as Record<string, unknown>)) {
    doc.errors(webhookRef(type), {});
  }
}

/**
 * Validates one delivered body against the `webhooks` entry of its `type` in the served OpenAPI
 * document with a real JSON Schema validator; a mismatch is reported (and fails the test).
 */
export function checkWebhookBody(body: string): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    reportWebhookViolation(`a delivery body is not JSON: ${body.slice(0, 200)}`);
    return;
  }
  const type = (parsed as { type?: unknown } | null)?.type;
  const doc = documentValidator();
  const webhooks = (doc.document.webhooks ?? {}) as Record<string, unknown>;
  if (typeof type !== 'string' || !(type in webhooks)) {
    reportWebhookViolation(`a delivery has a type the document's webhooks do not list: ${String(type)}`);
    return;
  }
  const problems = doc.explain(webhookRef(type), parsed);
  if (problems.length > 0) {
    reportWebhookViolation(
      `${type} delivery does not match its webhooks schema:\n  ${problems.join('\n  ')}`,
    );
  }
}
