import { parseDuration } from './clock.js';

/**
 * Every automatic delay of the partner worlds, on the partner clock. DESIGN's defaults; each one
 * can be changed at start-up (`--timings contract_generation=0s,offer_validity=7d`) and reaches
 * domain code through its context (`ctx.timings`), never as a constant.
 */
export interface Timings {
  /** An uploaded document is reviewed this long after its upload. */
  documentReviewMs: number;
  /** The KYC review completes this long after the last required item is submitted. */
  kycReviewMs: number;
  /** A hosted biometrics capture session can be used this long after it is started. */
  biometricsSessionMs: number;
  /** An offer is valid this long after it is generated. */
  offerValidityMs: number;
  /** A fresh offer arrives this long after an offer expires or its loan is cancelled or fails. */
  offerRenewalMs: number;
  /** processing -> contract_generated. */
  contractGenerationMs: number;
  /** contract_generated -> awaiting_signatures. */
  signatureRequestMs: number;
  /** Magic profiles that sign or decline by themselves do it this long after the request. */
  magicSignatureMs: number;
  /** signed -> disbursing. */
  disbursementStartMs: number;
  /** disbursing -> active (or error for the disbursement_failure profile). */
  disbursementConfirmationMs: number;
}

const SECOND = 1000;
const DAY = 86_400_000;

export const DEFAULT_TIMINGS: Readonly<Timings> = {
  documentReviewMs: 5 * SECOND,
  kycReviewMs: 10 * SECOND,
  biometricsSessionMs: 15 * 60 * SECOND,
  offerValidityMs: 30 * DAY,
  offerRenewalMs: 1 * DAY,
  contractGenerationMs: 2 * SECOND,
  signatureRequestMs: 1 * SECOND,
  magicSignatureMs: 5 * SECOND,
  disbursementStartMs: 2 * SECOND,
  disbursementConfirmationMs: 3 * SECOND,
};

/** The names `--timings` accepts, as a user writes them. */
export const TIMING_NAMES: Readonly<Record<string, keyof Timings>> = {
  document_review: 'documentReviewMs',
  kyc_review: 'kycReviewMs',
  biometrics_session: 'biometricsSessionMs',
  offer_validity: 'offerValidityMs',
  offer_renewal: 'offerRenewalMs',
  contract_generation: 'contractGenerationMs',
  signature_request: 'signatureRequestMs',
  magic_signature: 'magicSignatureMs',
  disbursement_start: 'disbursementStartMs',
  disbursement_confirmation: 'disbursementConfirmationMs',
};

/**
 * Reads `name=duration,...` (durations like `0s`, `90s`, `15m`, `2h`, `35d`) over the defaults.
 * Throws an Error whose message says which part is wrong and what is accepted.
 */
export function parseTimings(spec: string): Timings {
  const timings: Timings = { ...DEFAULT_TIMINGS };
  for (const part of spec
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [name, value] = part.split('=').map((p) => p.trim());
    const key = name === undefined ? undefined : TIMING_NAMES[name];
    if (!key) {
      throw new Error(
        `unknown timing "${name}" in --timings. Known: ${Object.keys(TIMING_NAMES).join(', ')}`,
      );
    }
    const ms = value === undefined ? undefined : parseDuration(value);
    if (ms === undefined) {
      throw new Error(`--timings ${name}: "${value ?? ''}" is not a duration like 0s, 90s, 15m, 2h or 35d`);
    }
    timings[key] = ms;
  }
  return timings;
}
