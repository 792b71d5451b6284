/**
 * Every delay of the credit lifecycle, in one place. All run on the partner clock as timed jobs, so
 * advancing the clock plays them in order. Documented in docs/credit.md.
 */

const SECOND = 1000;
const DAY = 86_400_000;

/** An offer is valid this long after it is generated. */
export const OFFER_VALIDITY_MS = 30 * DAY;
/** A fresh offer arrives this long after an offer expires or its loan is cancelled or fails. */
export const OFFER_REGENERATE_AFTER_MS = 1 * DAY;

/** processing -> contract_generated. */
export const CONTRACT_AFTER_MS = 2 * SECOND;
/** contract_generated -> awaiting_signatures. */
export const SIGNATURE_REQUEST_AFTER_MS = 1 * SECOND;
/** signed -> disbursing. */
export const DISBURSEMENT_START_AFTER_MS = 2 * SECOND;
/** disbursing -> active (or error for the disbursement_failure profile). */
export const DISBURSEMENT_CONFIRM_AFTER_MS = 3 * SECOND;

/** Magic profiles that sign (or decline) by themselves do it this long after the signature request. */
export const MAGIC_SIGNATURE_AFTER_MS = 5 * SECOND;
/** Magic payers pay at this hour (UTC) of the payment day. */
export const MAGIC_PAYMENT_HOUR_UTC = 12;
/** The pays_late profile pays this many days after each due date. */
export const PAYS_LATE_DAYS = 10;

/** Milliseconds of a calendar day, for date arithmetic on the clock. */
export const DAY_MS = DAY;
