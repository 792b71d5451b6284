/**
 * Limits of the customer/KYC flow. Its delays (document review, KYC review, biometrics session)
 * are in `src/engine/timings.ts`, configurable with `--timings`.
 */

/** Largest accepted KYC document: 10 MiB. */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
