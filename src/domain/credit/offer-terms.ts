import { createHash } from 'node:crypto';
import { defaultFirstDueDate, dueDateSchedule, type IsoDate } from '../../finance/index.js';
import type { MagicBehaviour } from '../magic-profiles.js';

/** Named due-date rules an offer may carry; `null` means the first installment is due 30 days after the simulation. */
export const DUE_DATE_RULES = ['same_day_next_month'] as const;
export type DueDateRule = (typeof DUE_DATE_RULES)[number];

/** Who the offer is priced for (IOF class): MEI customers (with a CNPJ) are Simples Nacional companies. */
export type OfferBorrower = 'individual' | 'simples_mei';

/** The terms of an offer, before it gets an id and dates. */
export interface OfferTerms {
  tier: string;
  borrower: OfferBorrower;
  approved_amount: string;
  min_amount: string;
  /** Percent a month. */
  interest_rate: number;
  /** Either a fixed count... */
  installments: number | null;
  /** ...or a range (both set, `installments` null). */
  min_installments: number | null;
  max_installments: number | null;
  due_date_rule: DueDateRule | null;
  /** Percent of the requested amount charged as a fee on each simulation; "0.00" for individuals. */
  fee_percentage: string;
}

type TierTerms = Omit<OfferTerms, 'borrower'>;

/** Tiers for individuals (CPF only). Never a fee: origination fees are forbidden for individuals. */
export const INDIVIDUAL_TIERS: readonly TierTerms[] = [
  tier('starter', '3000.00', '300.00', 4.49, 6, null, null, '0.00'),
  tier('standard', '10000.00', '500.00', 2, 12, null, 'same_day_next_month', '0.00'),
  tier('plus', '20000.00', '1000.00', 1.79, null, [6, 24], null, '0.00'),
  tier('premium', '50000.00', '2000.00', 1.49, 24, null, 'same_day_next_month', '0.00'),
];

/** Tiers for MEI customers (a CNPJ present): Simples Nacional IOF, and a fee. */
export const MEI_TIERS: readonly TierTerms[] = [
  tier('mei_essential', '15000.00', '1000.00', 2.49, 12, null, null, '1.00'),
  tier('mei_growth', '30000.00', '2000.00', 1.99, null, [6, 24], 'same_day_next_month', '1.50'),
  tier('mei_capital', '50000.00', '5000.00', 1.69, null, [12, 36], 'same_day_next_month', '2.00'),
];

/** The tier an `installment_range` magic profile gets (one with a min/max range). */
const RANGE_TIER = { individual: 'plus', simples_mei: 'mei_growth' } as const;

/**
 * The offer terms of a customer, derived deterministically from the profile: the first byte of
 * SHA-256 over the 11 CPF digits, modulo the number of tiers, picks the tier; a CNPJ selects the
 * MEI tiers. The `installment_range` magic profile always gets a tier with a range.
 */
export function offerTermsFor(
  customer: { cpf: string; cnpj: string | null },
  behaviour?: MagicBehaviour,
): OfferTerms {
  const borrower: OfferBorrower = customer.cnpj === null ? 'individual' : 'simples_mei';
  const tiers = borrower === 'individual' ? INDIVIDUAL_TIERS : MEI_TIERS;
  const chosen =
    behaviour === 'installment_range'
      ? tiers.find((t) => t.tier === RANGE_TIER[borrower])
      : tiers[tierIndex(customer.cpf, tiers.length)];
  if (!chosen) throw new Error(`no tier for ${customer.cpf}`);
  return { ...chosen, borrower };
}

/** Which of `count` tiers a CPF falls in. */
export function tierIndex(cpf: string, count: number): number {
  return (createHash('sha256').update(cpf).digest()[0] ?? 0) % count;
}

/** The first due date of a simulation made on `simulationDate` under `rule`. */
export function firstDueDateFor(rule: string | null, simulationDate: IsoDate): IsoDate {
  // Same day of the next month, clamped to its last day: the second date of a monthly schedule.
  if (rule === 'same_day_next_month') return dueDateSchedule(simulationDate, 2)[1] as IsoDate;
  return defaultFirstDueDate(simulationDate);
}

function tier(
  name: string,
  approved: string,
  min: string,
  rate: number,
  installments: number | null,
  range: [number, number] | null,
  rule: DueDateRule | null,
  fee: string,
): TierTerms {
  return {
    tier: name,
    approved_amount: approved,
    min_amount: min,
    interest_rate: rate,
    installments,
    min_installments: range?.[0] ?? null,
    max_installments: range?.[1] ?? null,
    due_date_rule: rule,
    fee_percentage: fee,
  };
}
