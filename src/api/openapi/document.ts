import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/env.js';
import {
  CustomerCreatedData,
  CustomerKycUpdatedData,
  CustomerStatusData,
  LoanCancelledData,
  LoanPaymentReceivedData,
} from '../schemas/events.js';
import { contractExamples } from './contract-examples.js';
import { exampleFor } from './field-examples.js';
import { problemExample } from './problem-examples.js';
import { declareServerBehaviour, RESPONSE_HEADERS } from './server-behaviour.js';
import { webhooksSection } from './webhooks.js';

/** API version the sandbox simulates (the spec's interface version). */
export const API_VERSION = '2026-03-01';

/** Partner-facing tags first, in journey order; the sandbox-only control API last. */
export const TAG_ORDER = [
  { name: 'Authentication', description: 'OAuth 2.0 client credentials and API credentials' },
  { name: 'Customers', description: 'Registration, KYC documents and biometrics' },
  { name: 'Credit offers', description: 'Offers and loan simulations' },
  { name: 'Loans', description: 'Loans, their contract and installments' },
  { name: 'Webhook endpoints', description: 'Where events are delivered' },
  { name: 'Webhook events', description: 'What your endpoint receives (see `webhooks`)' },
  {
    name: 'Sandbox control',
    description: 'Sandbox only: clock, calendar, forced outcomes, events, deliveries, scenarios, partners',
  },
];

type Json = Record<string, unknown>;

/**
 * What the 3.0 rendition says of itself. It exists for Swagger UI at /docs, which reads an
 * OpenAPI 3.0 document several times faster than a 3.1 one (its 3.1 support resolves the whole
 * document through ApiDOM first); it is made from the same route definitions by the same generator.
 */
const THREE_ZERO_NOTE = (publicUrl: string) =>
  `This page shows an OpenAPI 3.0 rendition of the API, made from the same definitions for this viewer; the document itself is OpenAPI 3.1 at [/v3/openapi.json](${publicUrl}/v3/openapi.json), with the events as \`webhooks\` (also in the [webhooks guide](${publicUrl}/guides/webhooks.md)).`;
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/**
 * The OpenAPI 3.1 document as served: built from the zod route definitions, with paths relative to
 * the server `<public-url>/v3` (as the specification writes them), OAuth 2.0 client credentials for
 * Swagger UI's "Authorize", tags in journey order, a realistic example on every schema, parameter
 * and error response, the events as `webhooks`, and named request/response examples that contract
 * testing tools (Specmatic) replay against a running sandbox.
 */
export function buildOpenApiDocument(
  app: OpenAPIHono<AppEnv>,
  publicUrl: string,
  version: '3.1' | '3.0' = '3.1',
): Json {
  for (const [name, schema] of Object.entries({
    CustomerCreatedData,
    CustomerStatusData,
    CustomerKycUpdatedData,
    LoanPaymentReceivedData,
    LoanCancelledData,
  })) {
    if (!app.openAPIRegistry.definitions.some((d) => d.type === 'schema' && d.schema === schema)) {
      app.openAPIRegistry.register(name, schema);
    }
  }
  const generate = (config: Parameters<typeof app.getOpenAPI31Document>[0]) =>
    version === '3.1'
      ? app.getOpenAPI31Document(config)
      : app.getOpenAPIDocument({ ...config, openapi: '3.0.3' });
  const doc = generate({
    openapi: '3.1.0',
    info: {
      title: 'credit-sandbox — embedded credit API',
      version: API_VERSION,
      description: [
        'A stateful sandbox of the embedded-credit partner API. Paths are relative to the server URL, which ends in `/v3` as in production.',
        'Click **Authorize** and enter a client id and secret (OAuth 2.0 client credentials): Swagger UI fetches the token for you.',
        `Errors are \`application/problem+json\`; every \`code\` is explained at [/problems](${publicUrl}/problems).`,
        `Guides: [customers and KYC](${publicUrl}/guides/customers.md), [credit and loans](${publicUrl}/guides/credit.md), [webhooks](${publicUrl}/guides/webhooks.md), [scenarios](${publicUrl}/guides/scenarios.md), [CLI](${publicUrl}/guides/cli.md), [deterministic mode and business days](${publicUrl}/guides/determinism.md).`,
        'Endpoints tagged *Sandbox control* do not exist in production.',
        ...(version === '3.0' ? [THREE_ZERO_NOTE(publicUrl)] : []),
      ].join('\n\n'),
    },
    servers: [{ url: `${publicUrl}/v3`, description: 'This sandbox' }],
    security: [{ oauth2: [] }, { bearerAuth: [] }],
    tags: TAG_ORDER,
  }) as unknown as Json;

  doc.paths = relativePaths(doc.paths as Record<string, Json>);
  const components = (doc.components ?? {}) as Json;
  components.securitySchemes = {
    ...(components.securitySchemes as Json | undefined),
    oauth2: {
      type: 'oauth2',
      description:
        'Client id and secret (OAuth 2.0 client credentials); the token is sent as a Bearer token.',
      flows: { clientCredentials: { tokenUrl: `${publicUrl}/v3/auth/token`, scopes: {} } },
    },
  };
  components.headers = { ...(components.headers as Json | undefined), ...RESPONSE_HEADERS };
  doc.components = components;
  for (const schema of Object.values((components.schemas ?? {}) as Record<string, Json>))
    fillExamples(schema, '');
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method] as Json | undefined;
      if (operation) {
        declareServerBehaviour(operation, method, path);
        decorateOperation(operation, path, publicUrl);
      }
    }
  }
  contractExamples(doc.paths as Record<string, Json>, components, publicUrl);
  if (version === '3.1') doc.webhooks = webhooksSection();
  return doc;
}

/** `/v3/customers` → `/customers`: the server URL carries `/v3`. */
function relativePaths(paths: Record<string, Json>): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [path, item] of Object.entries(paths)) out[path.replace(/^\/v3(?=\/)/, '')] = item;
  return out;
}

/** Puts an example on every leaf of a schema that has none, from the field's name, enum or type. */
function fillExamples(schema: unknown, field: string): void {
  if (!schema || typeof schema !== 'object') return;
  const node = schema as Json;
  if (node.$ref !== undefined || node.example !== undefined || node.examples !== undefined) return;
  if (node.const !== undefined) return;
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const parts = node[key];
    if (Array.isArray(parts)) {
      // A union with a known field name gets one example on the union itself.
      const known = key === 'allOf' ? undefined : exampleFor(field, {});
      if (known !== undefined) node.example = known;
      else for (const part of parts) fillExamples(part, field);
      return;
    }
  }
  if (node.type === 'object' || node.properties) {
    for (const [name, property] of Object.entries((node.properties ?? {}) as Json))
      fillExamples(property, name);
    return;
  }
  if (node.type === 'array') {
    if (field in { events: 1 }) node.example = exampleFor(field, node);
    else fillExamples(node.items, field);
    return;
  }
  const example = exampleFor(field, node);
  if (example !== undefined) node.example = example;
}

/** Parameters whose name means something else on this path than in the field dictionary. */
function parameterExample(path: string, name: string, schema: Json): unknown {
  if (name === 'name' && path.includes('/scenarios/')) return 'happy-path';
  if (name === 'cpf') return '52998224725';
  if (name === 'type' && path.startsWith('/sandbox/events')) return 'loan.*';
  return exampleFor(name, schema);
}

function decorateOperation(operation: Json, path: string, publicUrl: string): void {
  for (const parameter of (operation.parameters ?? []) as Json[]) {
    const schema = (parameter.schema ?? {}) as Json;
    if (parameter.example === undefined && parameter.examples === undefined && schema.example === undefined) {
      const example = parameterExample(path, String(parameter.name), schema);
      if (example !== undefined) parameter.example = example;
    }
  }
  const body = operation.requestBody as Json | undefined;
  for (const media of Object.values((body?.content ?? {}) as Record<string, Json>))
    fillExamples(media.schema, '');
  for (const [status, response] of Object.entries((operation.responses ?? {}) as Record<string, Json>)) {
    for (const [type, media] of Object.entries((response.content ?? {}) as Record<string, Json>)) {
      if (type === 'application/problem+json') media.example = problemExample(Number(status), publicUrl);
      else fillExamples(media.schema, '');
    }
  }
}
