import { describe, expect, it } from 'vitest';
import { ERROR_CATALOG } from '../../src/domain/errors.js';
import { ALL_EVENT_TYPES } from '../../src/engine/event-types.js';
import { isValidCpf } from '../../src/finance/cpf.js';
import { createTestSandbox } from '../support/sandbox.js';

type Json = Record<string, unknown>;
interface Doc {
  servers: { url: string }[];
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json>; securitySchemes: Record<string, Json> };
  webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: Json }> } } }>;
  tags: { name: string }[];
  security: Record<string, unknown[]>[];
  info: { description: string };
}

async function documentOf(sandbox = createTestSandbox()): Promise<Doc> {
  return (await (await sandbox.app.request('/v3/openapi.json')).json()) as Doc;
}

const METHODS = ['get', 'post', 'patch', 'put', 'delete'];
function operations(doc: Doc): [string, string, Json][] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m): [string, string, Json] => [m, path, item[m] as Json]),
  );
}

/** Leaves of a schema (outside $refs) that carry no example, as dotted paths. */
function leavesWithoutExample(schema: unknown, where: string, out: string[]): void {
  if (!schema || typeof schema !== 'object') return;
  const node = schema as Json;
  if (node.$ref || node.example !== undefined || node.examples !== undefined || node.const !== undefined)
    return;
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    if (Array.isArray(node[key])) {
      for (const part of node[key] as unknown[]) leavesWithoutExample(part, where, out);
      return;
    }
  }
  if (node.type === 'object' || node.properties) {
    for (const [name, property] of Object.entries((node.properties ?? {}) as Json)) {
      leavesWithoutExample(property, `${where}.${name}`, out);
    }
    return;
  }
  if (node.type === 'array') {
    leavesWithoutExample(node.items, `${where}[]`, out);
    return;
  }
  // Free-form values (an event's data, a scenario param's default) have no type to show.
  if (node.type === undefined || node.type === 'null') return;
  out.push(where);
}

describe('OpenAPI document: base address, security, tags', () => {
  it('has the server at <public-url>/v3 and paths relative to it, which the app answers at /v3/...', async () => {
    const sandbox = createTestSandbox();
    const doc = await documentOf(sandbox);
    expect(doc.servers).toEqual([expect.objectContaining({ url: 'http://sandbox.test/v3' })]);
    expect(Object.keys(doc.paths)).toContain('/customers/{customer_id}');
    expect(Object.keys(doc.paths).filter((path) => path.startsWith('/v3'))).toEqual([]);
    // "Try it out" sends server URL + path: the clock path resolves.
    const res = await sandbox.request('GET', new URL(`${doc.servers[0]?.url}/sandbox/clock`).pathname);
    expect(res.status).toBe(200);
  });

  it('offers OAuth 2.0 client credentials (Authorize takes client id and secret) at the token endpoint', async () => {
    const doc = await documentOf();
    expect(doc.components.securitySchemes.oauth2).toMatchObject({
      type: 'oauth2',
      flows: { clientCredentials: { tokenUrl: 'http://sandbox.test/v3/auth/token', scopes: {} } },
    });
    expect(doc.security).toContainEqual({ oauth2: [] });
  });

  it('lists partner-facing tags before the sandbox control tag', async () => {
    const doc = await documentOf();
    const names = doc.tags.map((tag) => tag.name);
    expect(names.at(-1)).toBe('Sandbox control');
    expect(names.slice(0, 4)).toEqual(['Authentication', 'Customers', 'Credit offers', 'Loans']);
    const used = new Set(operations(doc).flatMap(([, , op]) => op.tags as string[]));
    for (const tag of used) expect(names).toContain(tag);
  });

  it('links the guides and the problem pages, and the links resolve', async () => {
    const sandbox = createTestSandbox();
    const doc = await documentOf(sandbox);
    const links = [...doc.info.description.matchAll(/\]\((http:\/\/sandbox\.test[^)]+)\)/g)].map(
      (m) => m[1] as string,
    );
    expect(links).toContain('http://sandbox.test/problems');
    expect(links.filter((link) => link.includes('/guides/')).length).toBeGreaterThanOrEqual(5);
    for (const link of links) expect((await sandbox.app.request(new URL(link).pathname)).status).toBe(200);
  });

  it('serves /docs and /docs/ alike', async () => {
    const sandbox = createTestSandbox();
    const plain = await (await sandbox.app.request('/docs')).text();
    const slash = await sandbox.app.request('/docs/');
    expect(slash.status).toBe(200);
    expect(await slash.text()).toBe(plain);
  });
});

describe('OpenAPI document: webhooks', () => {
  it('has one webhook per event type, its payload naming the type and a data schema', async () => {
    const doc = await documentOf();
    expect(Object.keys(doc.webhooks).sort()).toEqual([...ALL_EVENT_TYPES].sort());
    for (const type of ALL_EVENT_TYPES) {
      const schema = doc.webhooks[type]?.post.requestBody.content['application/json']?.schema as {
        properties: { type: { const: string }; data: { $ref?: string; allOf?: [{ $ref: string }, Json] } };
      };
      expect(schema.properties.type.const).toBe(type);
      // The component, or the component narrowed by what the event implies (its status…).
      const data = schema.properties.data;
      const ref = (data.$ref ?? data.allOf?.[0].$ref)?.split('/').at(-1) as string;
      expect(doc.components.schemas).toHaveProperty([ref]);
    }
  });
});

describe('OpenAPI document: examples', () => {
  it('has an example on every schema leaf of components, bodies and responses, and on every parameter', async () => {
    const doc = await documentOf();
    const missing: string[] = [];
    for (const [name, schema] of Object.entries(doc.components.schemas))
      leavesWithoutExample(schema, name, missing);
    for (const [method, path, op] of operations(doc)) {
      for (const p of (op.parameters ?? []) as Json[]) {
        if (p.example === undefined && p.examples === undefined && (p.schema as Json)?.example === undefined)
          missing.push(`${method} ${path} ${p.name}`);
      }
      const body = (op.requestBody as Json | undefined)?.content as Record<string, Json> | undefined;
      for (const media of Object.values(body ?? {}))
        leavesWithoutExample(media.schema, `${method} ${path} body`, missing);
    }
    expect(missing).toEqual([]);
  });

  it('shows valid CPFs, E.164 phones and emails', async () => {
    const doc = await documentOf();
    const customer = doc.components.schemas.Customer as { properties: Record<string, { example?: unknown }> };
    const request = doc.components.schemas.CreateCustomerRequest as {
      properties: Record<string, { example?: unknown }>;
    };
    for (const schema of [customer, request]) {
      expect(isValidCpf(String(schema.properties.cpf?.example))).toBe(true);
      expect(schema.properties.phone?.example).toMatch(/^\+55\d{10,11}$/);
      expect(schema.properties.email?.example).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
    }
  });

  it('gives each error response an example of that status, with a code of that status', async () => {
    const doc = await documentOf();
    let seen = 0;
    for (const [method, path, op] of operations(doc)) {
      for (const [status, response] of Object.entries(op.responses as Record<string, Json>)) {
        const media = (response.content as Record<string, Json> | undefined)?.['application/problem+json'];
        if (!media) continue;
        const named = Object.values((media.examples ?? {}) as Record<string, { value: unknown }>);
        const examples = (media.example === undefined ? named.map((e) => e.value) : [media.example]) as {
          status: number;
          code: keyof typeof ERROR_CATALOG;
          type: string;
        }[];
        expect(examples.length, `${method} ${path} ${status}`).toBeGreaterThan(0);
        for (const example of examples) {
          expect(example.status, `${method} ${path} ${status}`).toBe(Number(status));
          expect(ERROR_CATALOG[example.code].status).toBe(Number(status));
          expect(example.type).toBe(`http://sandbox.test/problems/${example.code}`);
          seen += 1;
        }
      }
    }
    expect(seen).toBeGreaterThan(100);
  });

  it('has named contract examples whose request and response share a name and a documented status', async () => {
    const doc = await documentOf();
    const names = new Set<string>();
    for (const [, , op] of operations(doc)) {
      for (const [, response] of Object.entries(op.responses as Record<string, Json>)) {
        for (const media of Object.values((response.content ?? {}) as Record<string, Json>)) {
          for (const name of Object.keys((media.examples ?? {}) as Json)) names.add(name);
        }
      }
    }
    expect(names.size).toBeGreaterThanOrEqual(30);
    expect(names).toContain('register_customer');
  });
});
