/**
 * Every duration of the customer/KYC flow, on the partner clock, in one place (docs/customers.md
 * documents the same numbers).
 */
export const KYC_TIMINGS = {
  /** An uploaded document is reviewed this long after its upload. */
  documentReviewMs: 5_000,
  /** The KYC review completes this long after the last required item is submitted. */
  kycReviewMs: 10_000,
  /** A hosted biometrics capture session can be used this long after it is started. */
  biometricsSessionMs: 15 * 60_000,
} as const;

/** Largest accepted KYC document: 10 MiB. */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
