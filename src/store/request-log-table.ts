import type { TableChanges } from './change-set.js';
import { RequestIdIndex } from './request-id-index.js';
import type { RequestLogOptions, RequestRecord } from './request-records.js';
import { type AnswerFilter, RequestRing } from './request-ring.js';

export type { RequestLogOptions } from './request-records.js';

import type { PersistedTable } from './table.js';

/**
 * The most entries the whole log holds on one instance (or one partner's limit, if higher): with
 * bodies of a few KB each (inspector/kept-body.ts), this bounds the log's memory however many
 * partners an instance serves. Beyond it, the partner holding the most loses its oldest.
 */
export const INSTANCE_LOG_ENTRIES = 10_000;

/**
 * The request inspector's log: a ring per partner (see RequestRing), persisted like any table.
 * Appending is the hot path (every API request), so it touches nothing but the partner's ring,
 * and the middleware's `appendSoon` does even that after the response is on its way:
 * - appends queued by `appendSoon` are applied at the end of the event loop's turn, and every
 *   read or change of the log applies them first, so no reader ever misses one;
 * - the id index is lazy (see RequestIdIndex);
 * - change tracking (only when a backend writes change sets) counts appends per ring and keeps
 *   the ids that fell out; rows are built when the change set is taken, once per flush.
 */
export class RequestLogTable implements PersistedTable {
  readonly name = 'requests';
  tracking = false;

  private readonly rings = new Map<string, RequestRing>();
  private total = 0;
  private readonly index = new RequestIdIndex((ring) => this.rings.get(ring.partnerId) === ring);
  private readonly unflushed: RequestRing[] = [];
  private deleted: string[] = [];
  private pending: RequestRecord[] = []; // entries waiting for the end of the event loop's turn
  private pendingLimit = 0;
  private readonly showAnswer: AnswerFilter;
  private readonly defer: (callback: () => void) => void;

  constructor(options: RequestLogOptions = {}) {
    this.showAnswer = options.showAnswer ?? ((text) => text);
    this.defer = options.defer ?? setImmediate;
  }

  get size(): number {
    this.applyPending();
    return this.total;
  }

  /** Bytes the rings hold (numbers and texts): `credit_sandbox_bytes{kind="inspector"}`. */
  get bytesHeld(): number {
    let bytes = 0;
    for (const ring of this.rings.values()) bytes += ring.bytesHeld;
    return bytes;
  }

  /** The partner's ring (oldest first), if it has logged anything; the id index caught up. */
  ring(partnerId: string): RequestRing | undefined {
    this.catchUp();
    return this.rings.get(partnerId);
  }

  /**
   * `append`, once the current turn of the event loop is over (every read applies it first): a
   * whole turn's requests in one go after their responses, in order.
   */
  appendSoon(entry: RequestRecord, limit: number): void {
    this.pending.push(entry);
    this.pendingLimit = limit;
    if (this.pending.length === 1) this.defer(this.applyPending);
  }

  /**
   * Appends the partner's newest request and drops its oldest beyond `limit`. An id already held
   * (a deterministic id source restarted over its own data) is settled by the id index later.
   */
  append(row: RequestRecord, limit: number): void {
    this.applyPending();
    this.add(row, limit);
  }

  get(id: string): RequestRecord | undefined {
    const found = this.locate(id);
    return found ? found.ring.row(found.position) : undefined;
  }

  locate(id: string): { ring: RequestRing; position: number } | undefined {
    this.catchUp();
    return this.index.find(id);
  }

  delete(id: string): RequestRecord | undefined {
    const found = this.locate(id);
    if (!found) return undefined;
    const { ring, position } = found;
    const row = ring.row(position);
    if (position === 0) this.dropOldest(ring);
    else {
      this.rebuild(ring, (rows) => rows.filter((r) => r.id !== id));
      if (this.tracking) this.deleted.push(id);
    }
    this.index.forget(id);
    return row;
  }

  deleteWhere(predicate: (row: { id: string }) => boolean): number {
    this.catchUp();
    let removed = 0;
    for (const ring of [...this.rings.values()])
      for (const row of ring.rows()) if (predicate(row) && this.delete(row.id)) removed++;
    return removed;
  }

  hasChangesOf(partnerId: string): boolean {
    this.applyPending();
    return this.rings.get(partnerId)?.awaitingFlush === true;
  }

  /** Forgets a partner's log without recording deletes (it moved elsewhere, or was removed). */
  evictPartner(partnerId: string): number {
    this.applyPending();
    const ring = this.rings.get(partnerId);
    if (!ring) return 0;
    this.rings.delete(partnerId);
    this.index.drop(ring);
    this.total -= ring.count;
    return ring.count;
  }

  clear(): void {
    this.applyPending();
    if (this.tracking) {
      for (const ring of this.rings.values())
        for (let i = 0; i < ring.count; i++) this.deleted.push(ring.id(i));
    }
    this.rings.clear();
    this.index.clear();
    this.total = 0;
  }

  takeChanges(): TableChanges {
    // Settles repeated ids first: a change set must not carry one id twice.
    this.catchUp();
    const upserts: RequestRecord[] = [];
    for (const ring of this.unflushed) {
      ring.awaitingFlush = false;
      if (this.rings.get(ring.partnerId) !== ring) continue;
      const fresh = Math.min(ring.appended - ring.flushedThrough, ring.count);
      for (let i = ring.count - fresh; i < ring.count; i++) upserts.push(ring.row(i));
      ring.flushedThrough = ring.appended;
    }
    this.unflushed.length = 0;
    let deletes = this.deleted;
    this.deleted = [];
    // An id both dropped and held again (a repeated id) is an upsert only: a backend may apply a
    // table's deletes and upserts in one step.
    if (deletes.length > 0 && upserts.length > 0) {
      const kept = new Set(upserts.map((row) => row.id));
      deletes = deletes.filter((id) => !kept.has(id));
    }
    return { upserts, deletes };
  }

  forgetChanges(): void {
    this.applyPending();
    for (const ring of this.unflushed) {
      ring.awaitingFlush = false;
      ring.flushedThrough = ring.appended;
    }
    this.unflushed.length = 0;
    this.deleted = [];
  }

  /** Replays a change set's rows: deletes, then upserts in `seq` order (no limit applies). */
  apply(changes: { upserts: readonly { id: string }[]; deletes: readonly string[] }): void {
    this.applyPending();
    for (const id of changes.deletes) this.delete(id);
    const byPartner = new Map<string, RequestRecord[]>();
    for (const row of changes.upserts as readonly RequestRecord[]) {
      const rows = byPartner.get(row.partner_id);
      if (rows) rows.push(row);
      else byPartner.set(row.partner_id, [row]);
    }
    for (const [partnerId, rows] of byPartner) {
      rows.sort((a, b) => a.seq - b.seq);
      let ring = this.rings.get(partnerId);
      if (!ring) {
        ring = new RequestRing(partnerId, rows.length, this.showAnswer);
        this.rings.set(partnerId, ring);
      }
      const first = rows[0];
      if (first && ring.count > 0 && ring.seq(ring.count - 1) >= first.seq) {
        this.insertOutOfOrder(ring, rows);
        continue;
      }
      for (const row of rows) ring.push(row);
      this.total += rows.length;
      this.queue(ring);
    }
  }

  dump(): RequestRecord[] {
    this.catchUp();
    const rows: RequestRecord[] = [];
    for (const ring of this.rings.values()) for (let i = 0; i < ring.count; i++) rows.push(ring.row(i));
    return rows;
  }

  load(rows: readonly { id: string }[]): void {
    this.clear();
    this.apply({ upserts: rows, deletes: [] });
    this.forgetChanges();
  }

  /**
   * Applies queued appends, indexes new ids and settles repeated ones (the entry with the higher
   * `seq` stays). Every reader calls this first, so none sees a queued or a repeated entry.
   */
  catchUp(): void {
    this.applyPending();
    for (;;) {
      const repeated = this.index.catchUp(this.rings.values(), this.total);
      if (repeated.length === 0) return;
      for (const { ring, seq } of repeated) this.removeEntry(this.rings.get(ring.partnerId) ?? ring, seq);
    }
  }

  private readonly applyPending = (): void => {
    if (this.pending.length === 0) return;
    const rows = this.pending;
    this.pending = [];
    for (const row of rows) this.add(row, this.pendingLimit);
  };

  private add(row: RequestRecord, limit: number): void {
    let ring = this.rings.get(row.partner_id);
    if (!ring) {
      ring = new RequestRing(row.partner_id, 16, this.showAnswer);
      this.rings.set(row.partner_id, ring);
    }
    while (ring.count >= limit && ring.count > 0) this.dropOldest(ring);
    if (limit <= 0) return;
    if (this.total >= Math.max(INSTANCE_LOG_ENTRIES, limit)) this.dropFromLargest();
    if (ring.count > 0 && ring.seq(ring.count - 1) >= row.seq) {
      this.insertOutOfOrder(ring, [row]);
      return;
    }
    ring.push(row);
    this.total++;
    this.queue(ring);
  }

  /** Makes room on a full instance: the oldest entry of the partner holding the most goes. */
  private dropFromLargest(): void {
    let largest: RequestRing | undefined;
    for (const ring of this.rings.values()) if (!largest || ring.count > largest.count) largest = ring;
    if (largest && largest.count > 0) this.dropOldest(largest);
  }

  private dropOldest(ring: RequestRing): void {
    if (this.tracking) this.deleted.push(ring.id(0));
    ring.shift();
    this.total--;
  }

  /** Queues a ring that gained entries for the id index and the next change set. */
  private queue(ring: RequestRing): void {
    this.index.queue(ring);
    if (this.tracking && !ring.awaitingFlush) {
      ring.awaitingFlush = true;
      this.unflushed.push(ring);
    }
  }

  /** Removes one entry by `seq` (its id is held again by a newer entry: no delete to record). */
  private removeEntry(ring: RequestRing, seq: number): void {
    const position = ring.positionOfSeq(seq);
    if (position > 0) this.rebuild(ring, (rows) => rows.filter((row) => row.seq !== seq));
    else if (position === 0) {
      ring.shift();
      this.total--;
    }
  }

  /** Rows older than the ring's newest: merged in `seq` order (restores, repeated ids). */
  private insertOutOfOrder(ring: RequestRing, rows: readonly RequestRecord[]): void {
    this.rebuild(ring, (held) => [...held, ...rows].sort((a, b) => a.seq - b.seq));
  }

  /** Replaces a ring's entries; every entry counts as new for the id index and change tracking. */
  private rebuild(ring: RequestRing, change: (rows: RequestRecord[]) => RequestRecord[]): void {
    const rebuilt = ring.rebuilt(change);
    this.total += rebuilt.count - ring.count;
    rebuilt.indexedThrough = Number.NEGATIVE_INFINITY;
    rebuilt.flushedThrough = this.tracking ? Number.NEGATIVE_INFINITY : rebuilt.appended;
    this.rings.set(ring.partnerId, rebuilt);
    this.queue(rebuilt);
  }
}
