import { describe, expect, it } from 'vitest';
import { Store } from '../store/store.js';
import { ApiError } from './errors.js';
import { createPartner, pageOfPartners, partnersCreatedBy } from './partners.js';

function sandboxWithPartners(made: number) {
  const store = new Store('k');
  let n = 0;
  const sources = {
    store,
    realNow: () => 1_000_000,
    ids: (p: string) => `${p}${++n}`,
    randomBytes: (s: number) => Buffer.alloc(s),
  };
  const creator = createPartner(sources, { name: 'creator', clockMode: 'frozen' }).partner;
  const other = createPartner(sources, { name: 'other', clockMode: 'frozen' }).partner;
  const mine: string[] = [];
  for (let i = 0; i < made; i++) {
    mine.push(
      createPartner(sources, { name: `mine ${i}`, clockMode: 'frozen', createdBy: creator.id }).partner.id,
    );
    createPartner(sources, { name: `theirs ${i}`, clockMode: 'frozen', createdBy: other.id });
  }
  return { store, creator, other, mine };
}

describe('the partners a partner created, by page', () => {
  it('pages newest first through its own partners only, as a scan of every partner would', () => {
    const { store, creator, mine } = sandboxWithPartners(7);
    const ids: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = partnersCreatedBy(store, creator.id, { limit: 3, startingAfter: after });
      ids.push(...page.data.map((p) => p.id));
      const scanned = pageOfPartners(
        [...store.partners.values()].filter((p) => p.created_by === creator.id),
        { limit: 3, startingAfter: after },
      );
      expect(page).toEqual(scanned);
      if (!page.has_more) break;
      after = page.data.at(-1)?.id;
    }
    expect(ids).toEqual([...mine].reverse());
  });

  it('forgets a deleted partner and refuses a cursor that is not an item of the list', () => {
    const { store, creator, other, mine } = sandboxWithPartners(3);
    store.evictPartner(mine[1] as string);
    expect(partnersCreatedBy(store, creator.id, { limit: 10 }).data.map((p) => p.id)).toEqual([
      mine[2],
      mine[0],
    ]);
    for (const cursor of [other.id, 'ptn_nope', mine[1] as string]) {
      expect(() => partnersCreatedBy(store, creator.id, { limit: 10, startingAfter: cursor })).toThrow(
        ApiError,
      );
    }
    expect(partnersCreatedBy(store, other.id, { limit: 1 })).toMatchObject({ has_more: true });
    expect(partnersCreatedBy(store, 'ptn_none', { limit: 5 })).toEqual({ data: [], has_more: false });
  });
});
