// Generates src/api.d.ts from the sandbox's served OpenAPI document, as `openapi-typescript <url>`
// does, with one change: a `format: binary` field (the document upload's `file`, a snapshot export)
// is typed `Blob` instead of `string`, so the upload takes a Blob without a cast. openapi-typescript
// does this through its Node API's `transform` only (its documented Blob recipe), not its CLI.
import { writeFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';

const url = `${process.env.SANDBOX_URL ?? 'http://localhost:8080'}/v3/openapi.json`;
const BLOB = ts.factory.createTypeReferenceNode(ts.factory.createIdentifier('Blob'));
const NULL = ts.factory.createLiteralTypeNode(ts.factory.createNull());

const ast = await openapiTS(new URL(url), {
  transform(schema) {
    if (schema.format !== 'binary') return undefined;
    const nullable = schema.nullable || (Array.isArray(schema.type) && schema.type.includes('null'));
    return nullable ? ts.factory.createUnionTypeNode([BLOB, NULL]) : BLOB;
  },
});
writeFileSync(new URL('../src/api.d.ts', import.meta.url), astToString(ast));
console.log(`src/api.d.ts generated from ${url} (format: binary as Blob)`);
