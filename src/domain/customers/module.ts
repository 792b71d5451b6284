import { idsPayload } from '../../engine/job-payloads.js';
import type { DomainModule } from '../modules.js';
import { KYC_REVIEW_JOB } from './kyc-progress.js';
import { DOCUMENT_REVIEW_JOB, kycReviewJob, reviewDocumentJob } from './kyc-review.js';

/** Customers and KYC: the automatic document review and KYC review run as timed jobs. */
export const customersModule: DomainModule = {
  name: 'customers',
  register(engine) {
    engine.handle(
      DOCUMENT_REVIEW_JOB,
      reviewDocumentJob,
      idsPayload({ customer_id: 'cust_', document_id: 'doc_' }),
    );
    engine.handle(KYC_REVIEW_JOB, kycReviewJob, idsPayload({ customer_id: 'cust_' }));
  },
};
