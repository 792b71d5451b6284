import { createRoute, z } from '@hono/zod-openapi';
import { documentView } from '../domain/customers/customer-view.js';
import { getDocument, uploadDocument } from '../domain/customers/documents.js';
import type { AppDeps } from '../http/deps.js';
import { sendJson } from '../http/json-text.js';
import { createRouter } from '../http/router.js';
import { viewText } from '../lib/view-text.js';
import { domainContext } from './context.js';
import { COMMON_ERRORS, IdempotencyHeader, json, problemResponses } from './schemas/common.js';
import { CustomerIdParam, DocumentSchema, UploadDocumentBody } from './schemas/customers.js';

/** A document's JSON, serialised once per row version. */
const documentJson = viewText(documentView);

const tags = ['Customers'];

const upload = createRoute({
  method: 'post',
  path: '/customers/{customer_id}/documents',
  operationId: 'uploadCustomerDocument',
  tags,
  summary: 'Upload a KYC document',
  description:
    "`type` must be a document requirement in the customer's `kyc` array (422 otherwise). The file must be PDF, JPEG or PNG — read from its leading bytes, whatever its name or declared type — not empty (422) and at most 10 MiB (422 `file_too_large`). A body that is not multipart/form-data answers 400 `unsupported_content_type` (the spec's status table has no 415 here). A refused upload stores nothing. The document is reviewed 5 s later (partner clock); the result arrives as `customer.kyc_updated`.",
  request: {
    headers: IdempotencyHeader,
    params: CustomerIdParam,
    body: { required: true, content: { 'multipart/form-data': { schema: UploadDocumentBody } } },
  },
  responses: {
    201: json(DocumentSchema, 'Stored and submitted; `Location` names the document'),
    ...problemResponses(400, 404, 422, ...COMMON_ERRORS),
  },
});

const show = createRoute({
  method: 'get',
  path: '/customers/{customer_id}/documents/{document_id}',
  operationId: 'getCustomerDocument',
  tags,
  summary: 'Read an uploaded document (metadata and review status)',
  request: {
    params: CustomerIdParam.extend({
      document_id: z.string().openapi({ param: { name: 'document_id', in: 'path' } }),
    }),
  },
  responses: { 200: json(DocumentSchema, 'The document'), ...problemResponses(404, ...COMMON_ERRORS) },
});

export function customerDocumentRoutes(deps: AppDeps) {
  const app = createRouter();

  app.openapi(upload, async (c) => {
    const customerId = c.req.valid('param').customer_id;
    const { type, file } = c.req.valid('form');
    const bytes = new Uint8Array(await file.arrayBuffer());
    const { document } = uploadDocument(domainContext(deps, c), customerId, type, {
      name: file.name,
      declaredType: file.type,
      bytes,
    });
    c.header('Location', `/v3/customers/${customerId}/documents/${document.id}`);
    return sendJson(c, documentJson(document), 201);
  });

  app.openapi(show, (c) => {
    const { customer_id, document_id } = c.req.valid('param');
    return sendJson(c, documentJson(getDocument(domainContext(deps, c), customer_id, document_id)), 200);
  });

  return app;
}
