import { type Clock, clockOf, initialClock } from '../engine/clock.js';
import type { IdSource, RandomBytes } from '../lib/ids.js';
import type { CredentialRecord, PartnerRecord } from '../store/records.js';
import type { Store } from '../store/store.js';
import { issueCredential } from './credentials.js';

export interface NewPartner {
  id?: string;
  name: string;
  clockMode: 'running' | 'frozen';
  credential?: { clientId: string; clientSecret: string };
}

export interface PartnerSources {
  store: Store;
  ids: IdSource;
  randomBytes: RandomBytes;
  realNow: () => number;
}

/** A partner's clock, following its stored state. */
export function partnerClock(sources: Pick<PartnerSources, 'store' | 'realNow'>, partnerId: string): Clock {
  return clockOf(() => {
    const partner = sources.store.partners.get(partnerId);
    if (!partner) throw new Error(`unknown partner ${partnerId}`);
    return partner.clock;
  }, sources.realNow);
}

/** Creates an isolated partner (workspace) with its first credential. */
export function createPartner(
  sources: PartnerSources,
  input: NewPartner,
): { partner: PartnerRecord; credential: CredentialRecord; secret: string } {
  const partner = sources.store.partners.insert({
    id: input.id ?? sources.ids('ptn_'),
    seq: sources.store.nextSeq(),
    name: input.name,
    created_at: new Date(sources.realNow()).toISOString(),
    clock: initialClock(input.clockMode, sources.realNow()),
  });
  const { row, secret } = issueCredential(
    {
      store: sources.store,
      partnerId: partner.id,
      clock: partnerClock(sources, partner.id),
      ids: sources.ids,
      randomBytes: sources.randomBytes,
    },
    'default',
    input.credential,
  );
  return { partner, credential: row, secret };
}
