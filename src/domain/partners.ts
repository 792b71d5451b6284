import { initialClock } from '../engine/clock.js';
import { partnerClock } from '../engine/partner-clock.js';
import type { IdSource, RandomBytes } from '../lib/ids.js';
import type { RandomStreams } from '../lib/random-streams.js';
import type { CredentialRecord, PartnerRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import { issueCredential } from './credentials.js';
import { ApiError } from './errors.js';

export interface NewPartner {
  id?: string;
  name: string;
  clockMode: 'running' | 'frozen';
  credential?: { clientId: string; clientSecret: string };
  /** The partner creating it, which can list it later. */
  createdBy?: string;
  /** The end of its lifetime, real time in ms since the epoch; it lives until deleted when absent. */
  expiresAtMs?: number | undefined;
}

export interface PartnerSources {
  store: Store;
  ids: IdSource;
  randomBytes: RandomBytes;
  realNow: () => number;
  /** Per-partner streams (`--seed`): the partner id comes from the server's, its credential from its own. */
  streams?: RandomStreams;
  /** `startTimeMs`: where a new partner's clock starts (`--start-time`). */
  config?: { startTimeMs?: number | undefined };
}

export { partnerClock };

/** Creates an isolated partner (workspace) with its first credential. */
export function createPartner(
  sources: PartnerSources,
  input: NewPartner,
): { partner: PartnerRecord; credential: CredentialRecord; secret: string } {
  // A partner made by another draws its id from its creator's stream (with `--seed`): every value
  // then belongs to some partner's stream, which moves with it between shared-mode instances.
  const serverIds = input.createdBy
    ? (sources.streams?.partner(input.createdBy).ids ?? sources.ids)
    : (sources.streams?.server.ids ?? sources.ids);
  const clock = initialClock(input.clockMode, sources.realNow(), sources.config?.startTimeMs);
  const partner = sources.store.partners.insert({
    id: input.id ?? serverIds('ptn_'),
    seq: sources.store.nextSeq(),
    name: input.name,
    // On the partner's own clock, so a seeded run with --start-time answers the same bytes.
    created_at: new Date(clock.frozen_at_ms ?? sources.realNow() + clock.offset_ms).toISOString(),
    clock,
    ...(input.createdBy ? { created_by: input.createdBy } : {}),
    ...(input.expiresAtMs !== undefined ? { expires_at_ms: input.expiresAtMs } : {}),
  });
  const own = sources.streams?.partner(partner.id) ?? sources;
  const { row, secret } = issueCredential(
    {
      store: sources.store,
      partnerId: partner.id,
      clock: partnerClock(sources, partner.id),
      ids: own.ids,
      randomBytes: own.randomBytes,
    },
    'default',
    input.credential,
  );
  return { partner, credential: row, secret };
}

/**
 * The partners `partnerId` created, newest first, one page (`startingAfter` is the last id of the
 * previous page).
 */
export function partnersCreatedBy(
  store: Store,
  partnerId: string,
  page: { limit: number; startingAfter?: string | undefined },
): { data: PartnerRecord[]; has_more: boolean } {
  // From the index, newest first: in the size of the page, not of every partner the sandbox holds.
  const rows = store.partnersByCreator.rows(partnerId);
  let end = rows.length;
  if (page.startingAfter !== undefined) {
    const after = store.partners.get(page.startingAfter);
    end = after ? store.partnersByCreator.positionOf(partnerId, after) : -1;
    if (end < 0) throw invalidCursor(page.startingAfter);
  }
  const data: PartnerRecord[] = [];
  for (let at = end - 1; at >= 0 && data.length < page.limit; at--) data.push(rows[at] as PartnerRecord);
  return { data, has_more: end - data.length > 0 };
}

/** A page of partners, newest first (shared mode reads the rows from its database). */
export function pageOfPartners(
  partners: PartnerRecord[],
  page: { limit: number; startingAfter?: string | undefined },
): { data: PartnerRecord[]; has_more: boolean } {
  const rows = [...partners].sort((a, b) => b.seq - a.seq);
  let start = 0;
  if (page.startingAfter !== undefined) {
    const at = rows.findIndex((partner) => partner.id === page.startingAfter);
    if (at < 0) throw invalidCursor(page.startingAfter);
    start = at + 1;
  }
  return { data: rows.slice(start, start + page.limit), has_more: rows.length > start + page.limit };
}

function invalidCursor(id: string): ApiError {
  return new ApiError(
    'invalid_cursor',
    `starting_after "${id}" is not an item of this list. Pass the id of the last item of the previous page.`,
    { param: 'starting_after' },
  );
}
