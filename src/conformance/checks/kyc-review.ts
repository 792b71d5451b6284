// KYC review outcomes the outside world decides (controlled mode): a rejected document, its
// resubmission, a data correction — each item's status, its message and the events they send.
import { getCustomer, registerCustomer, uploadDocument } from '../flows/customers.js';
import type { Check } from '../types.js';
import { expectEqual, expectStatus, expectTrue } from '../verdict.js';
import { firstDocumentType, kycItem, reviewedItem } from './kyc.js';

export const KYC_REVIEW_CHECKS: Check[] = [
  {
    id: 'customers.kyc.rejected',
    title:
      'a rejected document puts its item in pending_resubmission with a message, announced by customer.kyc_updated',
    spec: 'Resources › KycItem; States › KYC item and document',
    needs: 'controlled',
    async run(ctx) {
      const hook = await ctx.webhook({ events: ['customer.kyc_updated'] });
      const customer = await registerCustomer(ctx);
      const type = firstDocumentType(customer);
      expectStatus(await uploadDocument(await ctx.partner(), customer.id, type), 201, 'the upload');
      await ctx.control('POST', `/sandbox/customers/${customer.id}/kyc/${type}/reject`, {
        message: 'Conformance: the photo is unreadable.',
      });
      const item = kycItem(await getCustomer(await ctx.partner(), customer.id), type);
      expectEqual(item?.status, 'pending_resubmission', 'the rejected item’s status');
      expectTrue(
        typeof item?.message === 'string' && item.message.length > 0,
        'a rejected item has no message',
        'review feedback',
        item?.message,
      );
      // "Any change of a KYC item status sends customer.kyc_updated."
      await hook.waitFor(`customer.kyc_updated showing ${type} pending_resubmission`, (event) => {
        const items = Array.isArray(event.data.kyc) ? (event.data.kyc as Array<Record<string, unknown>>) : [];
        return (
          event.data.id === customer.id &&
          items.some((i) => i.type === type && i.status === 'pending_resubmission')
        );
      });
    },
  },
  {
    id: 'customers.kyc.resubmission',
    title: 'a rejected document can be uploaded again and goes on to review',
    spec: 'Resources › KycItem (pending_resubmission: customer must resubmit)',
    needs: 'controlled',
    async run(ctx) {
      const customer = await registerCustomer(ctx);
      const type = firstDocumentType(customer);
      const api = await ctx.partner();
      expectStatus(await uploadDocument(api, customer.id, type), 201, 'the first upload');
      await ctx.control('POST', `/sandbox/customers/${customer.id}/kyc/${type}/reject`, {
        message: 'Conformance: blurry.',
      });
      const again = await uploadDocument(api, customer.id, type);
      expectStatus(again, 201, 'the second upload of a rejected document');
      await reviewedItem(ctx, customer, type, 'approved');
    },
  },
  {
    id: 'customers.kyc.correction',
    title: 'a data correction is pending_correction until PATCH fixes it',
    spec: 'Resources › KycItem; PATCH /customers/{customer_id}',
    needs: 'controlled',
    async run(ctx) {
      const customer = await registerCustomer(ctx);
      await ctx.control('POST', `/sandbox/customers/${customer.id}/kyc/name/request-correction`, {
        message: 'Conformance: the name differs from the document.',
      });
      const api = await ctx.partner();
      expectEqual(
        kycItem(await getCustomer(api, customer.id), 'name')?.status,
        'pending_correction',
        'the data item asking for a correction',
      );
      expectStatus(
        await api.call('PATCH', `/customers/${customer.id}`, { body: { name: 'Conformance Corrected' } }),
        200,
        'the correcting PATCH',
      );
      await ctx.until('resume the analysis after the correction', async () => {
        const status = kycItem(await getCustomer(api, customer.id), 'name')?.status;
        return status !== undefined && status !== 'pending_correction' ? status : undefined;
      });
    },
  },
];
