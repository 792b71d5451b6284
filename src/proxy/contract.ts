import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS: its default export arrives as the module object under NodeNext.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/**
 * What the validating proxy knows of the API: the OpenAPI document a client downloads, nothing of
 * the server. Every schema the document names for a request body, an answer body, an answer header
 * or a webhook payload is compiled once (Ajv, JSON Schema 2020-12 with formats) when the contract is
 * built; an exchange then costs one lookup and the validations.
 */

type Json = Record<string, unknown>;

/** One operation of the document: `POST /customers` as `createCustomer`. */
export interface Operation {
  id: string;
  method: string;
  /** The path template relative to the server URL, e.g. `/customers/{customer_id}`. */
  template: string;
  /** Matches the path after the server URL's prefix (`/customers/cust_…`). */
  pattern: RegExp;
  /** Literal segments first: `/sandbox/snapshots/import` wins over `/sandbox/snapshots/{name}`. */
  literals: number;
  /** Where the operation is in the document. */
  pointer: string;
}

/** A declared answer of an operation: its media types and headers. */
export interface DeclaredAnswer {
  /** The key it was found under: `201`, `4XX` or `default`. */
  key: string;
  mediaTypes: string[];
  headers: Array<{ name: string; required: boolean; pointer: string | undefined }>;
  /** Where the answer is in the document (after its `$ref`s). */
  pointer: string;
}

/** A request body the document declares: whether required, and each media type's schema. */
export interface RequestBodyShape {
  required: boolean;
  media: Map<string, string | undefined>;
}

/** One schema failure, for a departure. */
export interface SchemaFailure {
  /** A path inside the value: `.kyc[0].status`, or '' for the value itself. */
  at: string;
  keyword: string;
  message: string;
  params: Record<string, unknown>;
  /** The value that failed (at `at`). */
  value: unknown;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

function escapePointer(segment: string): string {
  return encodeURIComponent(segment.replaceAll('~', '~0').replaceAll('/', '~1'));
}

function pointerOf(...segments: string[]): string {
  return `#${segments.map((segment) => `/${escapePointer(segment)}`).join('')}`;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A place in the document, as a JSON pointer fragment (`#/paths/~1customers/post`). */
type Pointer = string;

export class Contract {
  readonly operations: Operation[];
  private readonly byHead: Map<string, Operation[]>;
  /** Event type → the JSON pointer of its payload schema (the document's `webhooks`). */
  readonly webhookTypes: ReadonlyMap<string, Pointer>;
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<Pointer, ValidateFunction>();
  /** What the document says, read once per place: an exchange then costs lookups, not walks. */
  private readonly answers = new Map<string, DeclaredAnswer | null>();
  private readonly bodies = new Map<string, RequestBodyShape | null>();
  private readonly answerSchemas = new Map<string, Pointer | null>();

  constructor(readonly document: Json) {
    if (!isObject(document.paths)) throw new Error('the OpenAPI document has no paths');
    this.ajv = new Ajv2020({ strict: false, allErrors: false, validateSchema: false, logger: false });
    addFormats(this.ajv);
    for (const format of ['binary', 'byte', 'int32', 'int64', 'float', 'double', 'password'])
      this.ajv.addFormat(format, true);
    this.ajv.addSchema(document, 'openapi.json');
    this.operations = this.readOperations(document.paths);
    this.byHead = this.index();
    const webhookTypes = new Map<string, Pointer>();
    for (const type of Object.keys(isObject(document.webhooks) ? document.webhooks : {})) {
      const body = this.follow(`${this.follow(pointerOf('webhooks', type, 'post'))}/requestBody`);
      const media = this.follow(`${this.follow(`${body}/content`)}/application~1json`);
      const schema = this.schemaAt(`${media}/schema`);
      if (schema) webhookTypes.set(type, schema);
    }
    this.webhookTypes = webhookTypes;
  }

  /**
   * The operation a request names, or undefined when the document declares none. `path` is what
   * follows the base URL (`/customers/cust_…` of `/v3/customers/cust_…`), without the query.
   */
  match(method: string, path: string): Operation | undefined {
    const slash = path.indexOf('/', 1);
    const first = slash < 0 ? path.slice(1) : path.slice(1, slash);
    const lower = method.toLowerCase();
    const test = (operation: Operation) => operation.pattern.test(path);
    return this.byHead.get(`${lower} ${first}`)?.find(test) ?? this.byHead.get(`${lower} {}`)?.find(test);
  }

  /** Operations by method and first path segment (`get customers`; `{}` for a template first). */
  private index(): Map<string, Operation[]> {
    const byHead = new Map<string, Operation[]>();
    for (const operation of this.operations) {
      const first = operation.template.split('/')[1] ?? '';
      const key = `${operation.method} ${first.startsWith('{') ? '{}' : first}`;
      byHead.set(key, [...(byHead.get(key) ?? []), operation]);
    }
    return byHead;
  }

  /** The answer the operation declares for a status (`201`, then `2XX`, then `default`). */
  answer(operation: Operation, status: number): DeclaredAnswer | undefined {
    for (const key of [String(status), `${String(status)[0]}XX`, 'default']) {
      const answer = this.answerAt(operation, key);
      if (answer) return answer;
    }
    return undefined;
  }

  /** The statuses an operation declares, for a departure's "expected". */
  declaredStatuses(operation: Operation): string[] {
    return Object.keys(this.nodeAt(this.follow(`${operation.pointer}/responses`)) ?? {});
  }

  /** The request body's media types and the schema pointer of each. */
  requestBody(operation: Operation): RequestBodyShape | undefined {
    let shape = this.bodies.get(operation.pointer);
    if (shape === undefined) {
      shape = this.readRequestBody(operation) ?? null;
      this.bodies.set(operation.pointer, shape);
    }
    return shape ?? undefined;
  }

  private readRequestBody(operation: Operation): RequestBodyShape | undefined {
    const body = this.follow(`${operation.pointer}/requestBody`);
    const node = this.nodeAt(body);
    if (!node) return undefined;
    const content = this.follow(`${body}/content`);
    const media = new Map<string, Pointer | undefined>();
    for (const type of Object.keys(this.nodeAt(content) ?? {})) {
      media.set(type, this.schemaAt(`${this.follow(`${content}/${escapePointer(type)}`)}/schema`));
    }
    return { required: node.required === true, media };
  }

  /** The answer body's schema pointer for a declared answer and media type. */
  answerSchema(answer: DeclaredAnswer, mediaType: string): Pointer | undefined {
    const key = `${answer.pointer} ${mediaType}`;
    let pointer = this.answerSchemas.get(key);
    if (pointer === undefined) {
      pointer = this.readAnswerSchema(answer, mediaType) ?? null;
      this.answerSchemas.set(key, pointer);
    }
    return pointer ?? undefined;
  }

  private readAnswerSchema(answer: DeclaredAnswer, mediaType: string): Pointer | undefined {
    const content = this.follow(`${answer.pointer}/content`);
    return this.schemaAt(`${this.follow(`${content}/${escapePointer(mediaType)}`)}/schema`);
  }

  /** Validates a value against a compiled schema: [] when it passes, else its first failure. */
  check(pointer: Pointer, value: unknown): SchemaFailure[] {
    const validate = this.validators.get(pointer) ?? this.compile(pointer);
    if (validate(value)) return [];
    return (validate.errors ?? []).slice(0, 1).map((error) => failureOf(error, value));
  }

  private answerAt(operation: Operation, key: string): DeclaredAnswer | undefined {
    const cacheKey = `${operation.pointer} ${key}`;
    let answer = this.answers.get(cacheKey);
    if (answer === undefined) {
      answer = this.readAnswer(operation, key) ?? null;
      this.answers.set(cacheKey, answer);
    }
    return answer ?? undefined;
  }

  private readAnswer(operation: Operation, key: string): DeclaredAnswer | undefined {
    const pointer = this.follow(`${this.follow(`${operation.pointer}/responses`)}/${escapePointer(key)}`);
    if (!this.nodeAt(pointer)) return undefined;
    const headersAt = this.follow(`${pointer}/headers`);
    const headers = Object.keys(this.nodeAt(headersAt) ?? {}).map((name) => {
      const header = this.follow(`${headersAt}/${escapePointer(name)}`);
      return {
        name,
        required: this.nodeAt(header)?.required === true,
        pointer: this.schemaAt(`${header}/schema`),
      };
    });
    const mediaTypes = Object.keys(this.nodeAt(this.follow(`${pointer}/content`)) ?? {});
    return { key, pointer, mediaTypes, headers };
  }

  private compile(pointer: Pointer): ValidateFunction {
    const validate = this.ajv.compile({ $ref: `openapi.json${pointer}` });
    this.validators.set(pointer, validate);
    return validate;
  }

  /**
   * The pointer a schema is validated by, compiled: its `$ref` target when it is only a reference
   * (so the ~70 distinct schemas of ~570 places compile once each), else its own place.
   */
  private schemaAt(pointer: Pointer): Pointer | undefined {
    if (!this.nodeAt(pointer)) return undefined;
    const target = this.follow(pointer);
    if (!this.validators.has(target)) this.compile(target);
    return target;
  }

  /** Follows local `$ref`s from a place to the place they name. */
  private follow(pointer: Pointer): Pointer {
    let current = pointer;
    for (let hops = 0; hops < 16; hops++) {
      const node = this.nodeAt(current);
      const ref = node?.$ref;
      if (typeof ref !== 'string' || !ref.startsWith('#/')) return current;
      current = ref;
    }
    return current;
  }

  private nodeAt(pointer: Pointer): Json | undefined {
    const node = pointer
      .slice(2)
      .split('/')
      .map((part) => decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce<unknown>((at, key) => (isObject(at) ? at[key] : undefined), this.document);
    return isObject(node) ? node : undefined;
  }

  private readOperations(paths: Json): Operation[] {
    const operations: Operation[] = [];
    for (const [template, item] of Object.entries(paths)) {
      if (!isObject(item)) continue;
      for (const method of METHODS) {
        const node = item[method];
        if (!isObject(node)) continue;
        const segments = template.split('/').filter(Boolean);
        const source = segments
          .map((segment) =>
            /^\{[^}]+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
          )
          .join('/');
        const operation: Operation = {
          id: typeof node.operationId === 'string' ? node.operationId : `${method.toUpperCase()} ${template}`,
          method,
          template,
          pattern: new RegExp(`^/${source}/?$`),
          literals: segments.filter((segment) => !segment.startsWith('{')).length,
          pointer: pointerOf('paths', template, method),
        };
        operations.push(operation);
        // Every schema compiled now, not on the first exchange that needs it.
        for (const key of this.declaredStatuses(operation)) {
          const answer = this.answerAt(operation, key);
          for (const type of answer?.mediaTypes ?? []) if (answer) this.answerSchema(answer, type);
        }
        this.requestBody(operation);
      }
    }
    return operations.sort((a, b) => b.literals - a.literals);
  }
}

function failureOf(error: ErrorObject, root: unknown): SchemaFailure {
  const parts = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
  const value = parts.reduce<unknown>(
    (at, key) => (typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[key] : undefined),
    root,
  );
  const at = parts.map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`)).join('');
  return { at, keyword: error.keyword, message: error.message ?? error.keyword, params: error.params, value };
}
