/** Stream names of partners' seeded random streams start with this, then the partner id. */
export const PARTNER_STREAM_PREFIX = 'partner:';

/** How many blocks one partner's seeded random stream has drawn (`--seed`). */
export interface RandomCounterRecord {
  /** The stream's name, `partner:<partner id>`. */
  id: string;
  partner_id: string;
  draws: number;
}
