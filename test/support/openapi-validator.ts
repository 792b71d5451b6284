import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

type Json = Record<string, unknown>;
// ajv-formats is CommonJS: its default export arrives as the module object under NodeNext.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** `/webhooks/loan.active/post` → a URI fragment Ajv resolves inside the document. */
export function pointer(...segments: string[]): string {
  return `openapi.json#${segments.map((s) => `/${encodeURIComponent(s.replaceAll('~', '~0').replaceAll('/', '~1'))}`).join('')}`;
}

/**
 * A real JSON Schema 2020-12 validator (Ajv, with ajv-formats for `email`, `uri`, `date-time`…)
 * over the served OpenAPI 3.1 document: any schema inside it is checked by its JSON pointer, its
 * `$ref`s resolved in the document.
 */
export class OpenApiValidator {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(readonly document: Json) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats(this.ajv);
    // OpenAPI's own keywords inside schemas (example, discriminator…) are annotations.
    this.ajv.addKeyword('example');
    this.ajv.addSchema(document, 'openapi.json');
  }

  /** The errors of `value` against the schema at `ref` (a pointer()), or [] when it validates. */
  errors(ref: string, value: unknown): ErrorObject[] {
    let validate = this.compiled.get(ref);
    if (!validate) {
      validate = this.ajv.compile({ $ref: ref });
      this.compiled.set(ref, validate);
    }
    return validate(value) ? [] : (validate.errors ?? []);
  }

  /** `errors` as readable lines. */
  explain(ref: string, value: unknown): string[] {
    return this.errors(ref, value).map(
      (e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
    );
  }
}
