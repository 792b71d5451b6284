import { readFileSync } from 'node:fs';

/** Outcomes a magic CPF forces (see fixtures/magic-profiles.json and docs/lifecycle.md). */
export type MagicBehaviour =
  | 'document_rejected_once'
  | 'correction_requested'
  | 'no_offer'
  | 'signature_declined'
  | 'disbursement_failure'
  | 'pays_on_time'
  | 'pays_late'
  | 'pays_partially'
  | 'installment_range'
  | 'first_due_on_holiday';

export interface MagicProfile {
  cpf: string;
  formatted: string;
  behaviour: MagicBehaviour;
  description: string;
}

// fixtures/ sits two levels above both src/domain and dist/domain, so one relative URL serves both.
const FILE = new URL('../../fixtures/magic-profiles.json', import.meta.url);

export const MAGIC_PROFILES: readonly MagicProfile[] = (
  JSON.parse(readFileSync(FILE, 'utf8')) as { profiles: MagicProfile[] }
).profiles;

const BY_CPF = new Map(MAGIC_PROFILES.map((p) => [p.cpf, p.behaviour]));

/** The behaviour a (normalized, 11-digit) CPF forces, if it is a magic one. */
export function magicBehaviour(cpf: string): MagicBehaviour | undefined {
  return BY_CPF.get(cpf);
}
