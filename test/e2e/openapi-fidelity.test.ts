import { beforeAll, describe, expect, it } from 'vitest';
import { OpenApiValidator, pointer } from '../support/openapi-validator.js';
import { createTestSandbox } from '../support/sandbox.js';

type Json = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

let doc: Json;
let validator: OpenApiValidator;

beforeAll(async () => {
  const sandbox = createTestSandbox();
  doc = (await (await sandbox.app.request('/v3/openapi.json')).json()) as Json;
  validator = new OpenApiValidator(doc);
});

/** Every operation of `paths` and `webhooks` with where it lives. */
function operations(): { where: string[]; label: string; op: Json }[] {
  const out: { where: string[]; label: string; op: Json }[] = [];
  for (const section of ['paths', 'webhooks']) {
    for (const [path, item] of Object.entries((doc[section] ?? {}) as Record<string, Json>)) {
      for (const method of METHODS) {
        const op = item[method] as Json | undefined;
        if (op) out.push({ where: [section, path, method], label: `${method.toUpperCase()} ${path}`, op });
      }
    }
  }
  return out;
}

/** [pointer segments, example] for every example in a schema, its sub-schemas included. */
function schemaExamples(node: unknown, where: string[], out: [string[], unknown][]): void {
  if (!node || typeof node !== 'object' || Array.isArray(node)) return;
  const schema = node as Json;
  if (schema.example !== undefined) out.push([where, schema.example]);
  for (const [name, sub] of Object.entries((schema.properties ?? {}) as Json)) {
    schemaExamples(sub, [...where, 'properties', name], out);
  }
  for (const key of ['items', 'additionalProperties', 'not'])
    schemaExamples(schema[key], [...where, key], out);
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) {
    const parts = schema[key];
    if (Array.isArray(parts))
      parts.forEach((part, i) => {
        schemaExamples(part, [...where, key, String(i)], out);
      });
  }
}

/** [schema pointer segments, example, label] for every example the document holds. */
function allExamples(): [string[], unknown, string][] {
  const out: [string[], unknown, string][] = [];
  const add = (schemaAt: string[], holder: Json, label: string) => {
    if (holder.example !== undefined) out.push([schemaAt, holder.example, label]);
    for (const [name, example] of Object.entries((holder.examples ?? {}) as Record<string, Json>)) {
      out.push([schemaAt, example.value, `${label} (example ${name})`]);
    }
  };
  for (const { where, label, op } of operations()) {
    ((op.parameters ?? []) as Json[]).forEach((p, i) => {
      add([...where, 'parameters', String(i), 'schema'], p, `${label} parameter ${String(p.name)}`);
    });
    for (const [type, media] of Object.entries(
      ((op.requestBody as Json | undefined)?.content ?? {}) as Record<string, Json>,
    )) {
      add([...where, 'requestBody', 'content', type, 'schema'], media, `${label} request ${type}`);
    }
    for (const [status, response] of Object.entries((op.responses ?? {}) as Record<string, Json>)) {
      for (const [type, media] of Object.entries((response.content ?? {}) as Record<string, Json>)) {
        add([...where, 'responses', status, 'content', type, 'schema'], media, `${label} ${status} ${type}`);
      }
    }
  }
  const components = (doc.components ?? {}) as Json;
  for (const [name, header] of Object.entries((components.headers ?? {}) as Record<string, Json>)) {
    add(['components', 'headers', name, 'schema'], header, `header ${name}`);
  }
  const inSchemas: [string[], unknown][] = [];
  for (const [name, schema] of Object.entries((components.schemas ?? {}) as Json)) {
    schemaExamples(schema, ['components', 'schemas', name], inSchemas);
  }
  for (const [where, example] of inSchemas) out.push([where, example, where.join('/')]);
  return out;
}

describe('the OpenAPI document as third-party tools read it', () => {
  it('gives every operation a unique camelCase operationId and a summary', () => {
    const ids = new Set<string>();
    for (const { label, op } of operations()) {
      expect(op.operationId, label).toMatch(/^[a-z][a-zA-Z0-9]*$/);
      expect(ids.has(String(op.operationId)), `${label}: duplicate ${String(op.operationId)}`).toBe(false);
      ids.add(String(op.operationId));
      expect(String(op.summary ?? ''), label).toMatch(/^[A-Z]\S*( \S+)+/);
    }
    expect(ids.size).toBeGreaterThanOrEqual(56 + 16);
    expect([...ids]).toEqual(
      expect.arrayContaining([
        'createCustomer',
        'getCustomer',
        'listCustomers',
        'createSimulation',
        'createLoan',
      ]),
    );
  });

  it('validates every example against its own schema (Ajv, JSON Schema 2020-12 with formats)', () => {
    const examples = allExamples();
    expect(examples.length).toBeGreaterThan(300);
    const failures = examples.flatMap(([where, example, label]) => {
      const problems = validator.explain(pointer(...where), example);
      return problems.length > 0 ? [`${label}: ${problems.join('; ')}`] : [];
    });
    expect(failures).toEqual([]);
  });

  it('declares Location on the 201s that send it, and Request-Id on every response', () => {
    const paths = doc.paths as Record<string, Record<string, Json>>;
    for (const [path, method] of [
      ['/customers', 'post'],
      ['/customers/{customer_id}/documents', 'post'],
      ['/loans', 'post'],
    ] as const) {
      const responses = (paths[path]?.[method]?.responses ?? {}) as Record<string, Json>;
      const created = responses['201'] as Json;
      expect((created.headers as Json).Location, path).toEqual({ $ref: '#/components/headers/Location' });
      expect(((doc.components as Json).headers as Json).Location).toMatchObject({ required: true });
    }
    for (const { where, label, op } of operations()) {
      if (where[0] !== 'paths') continue;
      for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
        expect((response.headers as Json | undefined)?.['Request-Id'], `${label} ${status}`).toBeDefined();
      }
    }
  });

  it("lists exactly the spec's statuses on the operations of its status table", () => {
    const paths = doc.paths as Record<string, Record<string, Json>>;
    const statuses = (path: string, method: string) =>
      Object.keys(paths[path]?.[method]?.responses as Json).sort();
    expect(statuses('/customers', 'post')).toEqual(['200', '201', '400', '401', '409', '422', '429', '500']);
    expect(statuses('/customers/{customer_id}', 'get')).toEqual(['200', '401', '404', '429', '500']);
    expect(statuses('/customers/{customer_id}/documents', 'post')).toEqual([
      '201',
      '400',
      '401',
      '404',
      '422',
      '429',
      '500',
    ]);
    expect(statuses('/customers/{customer_id}/biometrics', 'post')).toEqual([
      '200',
      '401',
      '404',
      '409',
      '422',
      '429',
      '500',
    ]);
    expect(statuses('/credit-offers', 'get')).toEqual(['200', '400', '401', '404', '429', '500']);
    expect(statuses('/credit-offers/{credit_offer_id}', 'get')).toEqual(['200', '401', '404', '429', '500']);
    expect(statuses('/credit-offers/{credit_offer_id}/simulations', 'post')).toEqual([
      '201',
      '400',
      '401',
      '404',
      '422',
      '429',
      '500',
    ]);
    // Outside the table the middleware's statuses are declared too.
    expect(statuses('/webhooks/endpoints', 'post')).toEqual(
      expect.arrayContaining(['400', '413', '415', '422', '503']),
    );
  });

  it('describes email with format email and phone with an E.164 pattern', () => {
    const schemas = (doc.components as Json).schemas as Record<string, Json>;
    for (const name of [
      'CreateCustomerRequest',
      'UpdateCustomerRequest',
      'Customer',
      'CustomerCreatedData',
    ]) {
      const properties = schemas[name]?.properties as Record<string, Json>;
      expect(JSON.stringify(properties.email), name).toContain('"format":"email"');
      expect(JSON.stringify(properties.phone), name).toContain('\\\\+[1-9]\\\\d{6,14}');
    }
    const customer = pointer('components', 'schemas', 'Customer', 'properties', 'email');
    expect(validator.errors(customer, 'not-an-email')).not.toEqual([]);
    expect(validator.errors(customer, '')).toEqual([]);
  });
});
