import type { RequestRing } from './request-ring.js';

/** Where an id was seen: its ring and its `seq` (positions move as rings drop entries; seqs do not). */
export interface IndexedEntry {
  ring: RequestRing;
  seq: number;
}

/**
 * The request log's index from request id to entry, kept lazily so that appending (every API
 * request) never touches it: a ring that gained entries is queued once, and the next lookup
 * indexes what was appended since. The cost is amortized O(1) per request, paid by readers.
 * Entries that left their ring are not removed when they leave (that would need their id on the
 * append path): a lookup checks what it finds, and the map is rebuilt when stale ids pile up.
 */
export class RequestIdIndex {
  private readonly byId = new Map<string, IndexedEntry>();
  private unindexed: RequestRing[] = [];
  /** Rings in `unindexed` that left the log since (see `drop`). */
  private dropped = 0;

  /** `isLive`: whether a ring is still its partner's (rings are replaced when rebuilt or evicted). */
  constructor(private readonly isLive: (ring: RequestRing) => boolean) {}

  /** Rings waiting for the next catch-up (bounded by the live rings, see `drop`). */
  get backlog(): number {
    return this.unindexed.length;
  }

  /** Queues a ring that gained entries (once until the next catch-up). */
  queue(ring: RequestRing): void {
    if (ring.awaitingIndex) return;
    ring.awaitingIndex = true;
    this.unindexed.push(ring);
  }

  /**
   * Indexes what the queued rings gained. Returns the entries whose id a newer entry holds again
   * (only a deterministic id source restarted over its own data repeats an id): the caller
   * removes them, then catches up again.
   */
  catchUp(rings: Iterable<RequestRing>, held: number): IndexedEntry[] {
    if (this.byId.size > 2 * held + 64) {
      this.byId.clear();
      for (const ring of rings) {
        ring.indexedThrough = Number.NEGATIVE_INFINITY;
        this.queue(ring);
      }
    }
    const repeated: IndexedEntry[] = [];
    for (const ring of this.unindexed) {
      ring.awaitingIndex = false;
      if (!this.isLive(ring)) continue;
      const fresh = Math.min(ring.appended - ring.indexedThrough, ring.count);
      for (let i = ring.count - fresh; i < ring.count; i++) {
        const entry = { ring, seq: ring.seq(i) };
        const id = ring.id(i);
        const earlier = this.byId.get(id);
        if (earlier && earlier.seq !== entry.seq && this.positionOf(id, earlier) >= 0) {
          repeated.push(earlier.seq < entry.seq ? earlier : entry);
          if (earlier.seq > entry.seq) continue;
        }
        this.byId.set(id, entry);
      }
      ring.indexedThrough = ring.appended;
    }
    this.unindexed.length = 0;
    this.dropped = 0;
    return repeated;
  }

  /** Where a held id sits now (call `catchUp` first), or undefined. */
  find(id: string): { ring: RequestRing; position: number } | undefined {
    const entry = this.byId.get(id);
    if (!entry) return undefined;
    const position = this.positionOf(id, entry);
    if (position < 0) {
      this.byId.delete(id);
      return undefined;
    }
    return { ring: entry.ring, position };
  }

  forget(id: string): void {
    this.byId.delete(id);
  }

  /**
   * A ring that left the log (its partner was removed or moved): its ids leave the index at once,
   * and it leaves the queue once dropped rings are half of it. Otherwise a log nobody reads kept
   * every ring that ever queued, with its entries, however many partners came and went.
   */
  drop(ring: RequestRing): void {
    for (let i = 0; i < ring.count; i++) {
      const id = ring.id(i);
      if (this.byId.get(id)?.ring === ring) this.byId.delete(id);
    }
    if (!ring.awaitingIndex) return;
    this.dropped++;
    if (this.dropped > 64 && this.dropped * 2 > this.unindexed.length) {
      this.unindexed = this.unindexed.filter((queued) => this.isLive(queued));
      this.dropped = 0;
    }
  }

  clear(): void {
    this.byId.clear();
    this.unindexed = [];
    this.dropped = 0;
  }

  private positionOf(id: string, entry: IndexedEntry): number {
    const { ring } = entry;
    if (!this.isLive(ring)) return -1;
    const position = ring.positionOfSeq(entry.seq);
    return position >= 0 && ring.id(position) === id ? position : -1;
  }
}
