import { type ContractCase, PARTNER_CASES } from './contract-cases.js';
import { SANDBOX_CASES } from './contract-cases-sandbox.js';
import { problemExample } from './problem-examples.js';

/**
 * Named request/response examples that contract-testing tools replay against a running sandbox
 * (Specmatic pairs a request example with the response example of the same name and checks the
 * status and the response schema). Each one holds on a fresh sandbox whatever ran before it: lists
 * answer 200, creations 201 with values that always pass validation, and ids that name nothing
 * answer their documented 404. Swagger UI offers them in its example menus too.
 */
const CASES: ContractCase[] = [...PARTNER_CASES, ...SANDBOX_CASES];

type Json = Record<string, unknown>;

/** Adds the named examples to the (already relative) paths of the document. */
export function contractExamples(paths: Record<string, Json>, components: Json, publicUrl: string): number {
  let added = 0;
  for (const test of CASES) {
    const operation = paths[test.path]?.[test.method] as Json | undefined;
    if (!operation)
      throw new Error(`contract example ${test.name}: no operation ${test.method} ${test.path}`);
    const response = (operation.responses as Record<string, Json> | undefined)?.[String(test.status)];
    if (!response)
      throw new Error(
        `contract example ${test.name}: ${test.method} ${test.path} documents no ${test.status}`,
      );
    for (const [name, value] of Object.entries(test.params ?? {})) {
      const parameter = ((operation.parameters ?? []) as Json[]).find((p) => p.name === name);
      if (!parameter) throw new Error(`contract example ${test.name}: no parameter ${name}`);
      named(parameter, test.name, value);
    }
    if (test.body !== undefined) {
      const media = (
        (operation.requestBody as Json | undefined)?.content as Record<string, Json> | undefined
      )?.['application/json'];
      if (!media) throw new Error(`contract example ${test.name}: no JSON request body`);
      named(media, test.name, test.body);
    }
    for (const [type, media] of Object.entries((response.content ?? {}) as Record<string, Json>)) {
      const value =
        type === 'application/problem+json'
          ? problemExample(test.status, publicUrl)
          : sampleOf(media.schema, components);
      named(media, test.name, value);
    }
    added += 1;
  }
  return added;
}

function named(target: Json, name: string, value: unknown): void {
  // `example` and `examples` exclude each other: a parameter keeps its plain example on its schema;
  // a media type's named examples replace it.
  if (target.example !== undefined) {
    if (target.in !== undefined && target.schema) (target.schema as Json).example = target.example;
    delete target.example;
  }
  target.examples = { ...((target.examples as Json | undefined) ?? {}), [name]: { value } };
}

/** A value that follows the schema, built from the examples on its leaves. */
export function sampleOf(schema: unknown, components: Json): unknown {
  if (!schema || typeof schema !== 'object') return null;
  const node = schema as Json;
  if (typeof node.$ref === 'string') {
    const name = node.$ref.split('/').at(-1) as string;
    return sampleOf((components.schemas as Json)[name], components);
  }
  if (node.example !== undefined) return node.example;
  if (node.const !== undefined) return node.const;
  if (Array.isArray(node.allOf)) {
    return Object.assign({}, ...node.allOf.map((part: unknown) => sampleOf(part, components)));
  }
  for (const key of ['anyOf', 'oneOf']) {
    const parts = node[key];
    if (Array.isArray(parts)) {
      const concrete = parts.find((part: Json) => part.type !== 'null') ?? parts[0];
      return sampleOf(concrete, components);
    }
  }
  if (node.type === 'object' || node.properties) {
    const out: Json = {};
    for (const [name, property] of Object.entries((node.properties ?? {}) as Json))
      out[name] = sampleOf(property, components);
    return out;
  }
  if (node.type === 'array') return node.items ? [sampleOf(node.items, components)] : [];
  if (Array.isArray(node.enum)) return node.enum[0];
  return null;
}
