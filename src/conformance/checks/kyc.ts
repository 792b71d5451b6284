// KYC (spec: "KycItem", "Document", "Biometrics session", "States › Customer", "States › KYC item
// and document", POST /customers/{id}/documents and /biometrics): uploads, sessions and the moves
// they cause, with their events.
import { okBody } from '../context.js';
import {
  customerReaches,
  documentItems,
  getCustomer,
  hasBiometrics,
  type KitCustomer,
  registerCustomer,
  submitKyc,
  uploadDocument,
} from '../flows/customers.js';
import { documentForm } from '../flows/files.js';
import { BiometricsSession, DocumentShape, KycItem } from '../spec/shapes.js';
import { expectShape } from '../spec/validate.js';
import type { Check, CheckContext } from '../types.js';
import { expectEqual, expectStatus, expectTrue, skip } from '../verdict.js';
import { locationPath } from './customers.js';
import { expectProblem } from './problems.js';

const DOCS = 'Endpoints › Customers › POST /customers/{customer_id}/documents';
const BIO = 'Endpoints › Customers › POST /customers/{customer_id}/biometrics';

export function firstDocumentType(customer: KitCustomer): string {
  const type = documentItems(customer.body)[0];
  if (type === undefined) skip('the new customer has no document requirement to upload');
  return type;
}

export function kycItem(
  customer: Record<string, unknown>,
  type: string,
): Record<string, unknown> | undefined {
  return (customer.kyc as Array<Record<string, unknown>> | undefined)?.find((item) => item.type === type);
}

/** A customer whose first document item reached `submitted` or `approved` (its first review). */
export async function reviewedItem(ctx: CheckContext, customer: KitCustomer, type: string, status: string) {
  const api = await ctx.partner();
  return ctx.until(`review the ${type} document of customer ${customer.id}`, async () => {
    const item = kycItem(await getCustomer(api, customer.id), type);
    return item?.status === status ? item : undefined;
  });
}

export const KYC_CHECKS: Check[] = [
  {
    id: 'customers.kyc.items',
    title: 'every KYC item has kind, type, description, status, message and uploaded_at of the spec',
    spec: 'Resources › KycItem',
    needs: 'black-box',
    async run(ctx) {
      const { body, answer } = await registerCustomer(ctx, { mei: true });
      for (const item of body.kyc as unknown[]) expectShape(KycItem, item, 'KycItem', answer);
    },
  },
  {
    id: 'customers.documents.upload',
    title: 'an upload is answered 201 with the Document (id doc_…, status, dates)',
    spec: `${DOCS}; Resources › Document`,
    needs: 'black-box',
    async run(ctx) {
      const customer = await registerCustomer(ctx);
      const type = firstDocumentType(customer);
      const answer = await uploadDocument(await ctx.partner(), customer.id, type);
      expectStatus(answer, 201, 'POST /customers/{id}/documents');
      const document = expectShape(DocumentShape, answer.body, 'Document', answer);
      expectEqual(document.type, type, 'the document type as sent', answer);
    },
  },
  {
    id: 'customers.documents.location',
    title: 'the 201 carries Location /v3/customers/<customer_id>/documents/<document_id>',
    spec: DOCS,
    needs: 'black-box',
    async run(ctx) {
      const customer = await registerCustomer(ctx);
      const answer = await uploadDocument(await ctx.partner(), customer.id, firstDocumentType(customer));
      const id = okBody(answer, 'POST /customers/{id}/documents').id;
      expectEqual(
        locationPath(answer.headers.location, ctx.facts.target),
        `/v3/customers/${customer.id}/documents/${String(id)}`,
        'the Location header',
        answer,
      );
    },
  },
  {
    id: 'customers.documents.type-not-required',
    title: "a document type not in the customer's kyc array is refused (4xx problem)",
    spec: DOCS,
    needs: 'black-box',
    async run(ctx) {
      const customer = await registerCustomer(ctx);
      const answer = await (await ctx.partner()).call('POST', `/customers/${customer.id}/documents`, {
        body: documentForm('conformance_not_a_requirement'),
      });
      expectStatus(answer, [400, 422], 'a document of a type the customer does not need');
      expectProblem(answer);
    },
  },
  {
    id: 'customers.documents.format',
    title: 'a file that is not PDF, JPEG or PNG is refused (4xx problem)',
    spec: `${DOCS}; Limits (accepted document formats)`,
    needs: 'black-box',
    async run(ctx) {
      const customer = await registerCustomer(ctx);
      const form = documentForm(firstDocumentType(customer), 'text');
      const answer = await (await ctx.partner()).call('POST', `/customers/${customer.id}/documents`, {
        body: form,
      });
      expectStatus(answer, [400, 422], 'a text file as a document');
      expectProblem(answer);
    },
  },
  {
    id: 'customers.documents.unknown-customer',
    title: 'an upload for an unknown customer is answered 404',
    spec: `${DOCS}; Errors rule 4`,
    needs: 'black-box',
    async run(ctx) {
      const answer = await (await ctx.partner()).call(
        'POST',
        `/customers/cust_${'0'.repeat(31)}2/documents`,
        { body: documentForm('selfie') },
      );
      expectStatus(answer, 404, 'POST /customers/{unknown}/documents');
      expectProblem(answer, 404);
    },
  },
  {
    id: 'customers.documents.item-submitted',
    title: 'an upload moves its KYC item out of pending (submitted, then reviewed) and sets uploaded_at',
    spec: 'States › KYC item and document',
    needs: 'black-box',
    async run(ctx) {
      const customer = await registerCustomer(ctx);
      const type = firstDocumentType(customer);
      expectStatus(await uploadDocument(await ctx.partner(), customer.id, type), 201, 'the upload');
      const item = kycItem(await getCustomer(await ctx.partner(), customer.id), type);
      expectTrue(
        item !== undefined && item.status !== 'pending',
        'the item stays pending after its upload',
        'submitted (or a review outcome)',
        item?.status,
      );
      expectTrue(
        typeof item.uploaded_at === 'string',
        'uploaded_at is not set after the upload',
        'a date-time',
        item.uploaded_at,
      );
    },
  },
  {
    id: 'customers.biometrics.session',
    title: 'POST /customers/{id}/biometrics answers 200 (not 201) with session_url and expires_at',
    spec: `${BIO}; Resources › Biometrics session`,
    needs: 'black-box',
    async run(ctx) {
      const customer = await registerCustomer(ctx);
      if (!hasBiometrics(customer.body)) skip('the new customer has no biometrics requirement');
      const answer = await (await ctx.partner()).call('POST', `/customers/${customer.id}/biometrics`);
      expectStatus(answer, 200, 'POST /customers/{id}/biometrics');
      const session = expectShape(BiometricsSession, answer.body, 'Biometrics session', answer);
      expectTrue(
        Date.parse(session.expires_at) > Date.parse(String(customer.body.created_at)),
        'the session expires before it was made',
        'expires_at later than now',
        session.expires_at,
        answer,
      );
    },
  },
  {
    id: 'customers.biometrics.unknown-customer',
    title: 'a biometrics session for an unknown customer is answered 404',
    spec: `${BIO}; Errors rule 4`,
    needs: 'black-box',
    async run(ctx) {
      const answer = await (await ctx.partner()).call(
        'POST',
        `/customers/cust_${'0'.repeat(31)}3/biometrics`,
      );
      expectStatus(answer, 404, 'POST /customers/{unknown}/biometrics');
      expectProblem(answer, 404);
    },
  },
  {
    id: 'customers.kyc.under-review',
    title: 'with every requirement submitted the customer moves to under_review or on to active',
    spec: 'States › Customer',
    needs: 'black-box',
    async run(ctx) {
      const customer = await registerCustomer(ctx);
      await submitKyc(ctx, customer);
      const api = await ctx.partner();
      await ctx.until(`move customer ${customer.id} past pending_kyc`, async () => {
        const status = (await getCustomer(api, customer.id)).status;
        return status === 'under_review' || status === 'active' ? status : undefined;
      });
    },
  },
  {
    id: 'customers.kyc.active',
    title: 'an approved KYC makes the customer active and credit offers appear',
    spec: 'States › Customer; What the service does 3',
    needs: 'black-box',
    async run(ctx) {
      const customer = await registerCustomer(ctx);
      await submitKyc(ctx, customer);
      const active = await customerReaches(ctx, customer.id, 'active');
      const items = (active.kyc as Array<Record<string, unknown>>).filter(
        (item) => item.status !== 'approved',
      );
      expectTrue(
        items.length === 0,
        'an active customer has KYC items that are not approved',
        'every item approved',
        items,
      );
      const api = await ctx.partner();
      await ctx.until(`offer credit to customer ${customer.id}`, async () => {
        const offers = okBody(
          await api.call('GET', `/customers/${customer.id}/credit-offers`),
          'GET /customers/{id}/credit-offers',
        ).data;
        return Array.isArray(offers) && offers.length > 0 ? offers : undefined;
      });
    },
  },
];
