/**
 * Fixed facts of the credit calendar. The lifecycle's delays (offer validity and renewal, contract,
 * signature request, disbursement) are in `src/engine/timings.ts`, configurable with `--timings`.
 */

/** Milliseconds of a calendar day, for date arithmetic on the clock. */
export const DAY_MS = 86_400_000;
/** Magic payers pay at this hour (UTC) of the payment day. */
export const MAGIC_PAYMENT_HOUR_UTC = 12;
/** The pays_late profile pays this many days after each due date. */
export const PAYS_LATE_DAYS = 10;
