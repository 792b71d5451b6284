import type { PersistedTable } from './table.js';

/**
 * The store's partners removed for good (deleted, expired): each is named once in the next
 * change set (`purged`), and until that change is durable its rows' durable versions are kept by
 * the tables' undo, so a failed write puts the partner back whole (and says so to the listeners
 * that dropped its timers and deliveries when it went).
 */
export class PartnerRemovals {
  private pending: string[] = [];
  /** Removed since the last durable write: a rollback brings them back. */
  private readonly unsettled = new Set<string>();
  private readonly restoredListeners: ((partnerId: string) => void)[] = [];

  /** `tables`: every table a removal empties (the tombstones are not among them). */
  constructor(private readonly tables: () => readonly PersistedTable[]) {}

  remove(partnerId: string, tracking: boolean, undoing: boolean): void {
    for (const table of this.tables()) table.evictPartner(partnerId, true);
    if (tracking) this.pending.push(partnerId);
    if (undoing) this.unsettled.add(partnerId);
  }

  /** The removals for the change set being taken (then forgotten), or undefined. */
  take(): string[] | undefined {
    if (this.pending.length === 0) return undefined;
    const taken = this.pending;
    this.pending = [];
    return taken;
  }

  /** A replayed removal (journal recovery): the rows go, nothing to undo. */
  replay(partnerId: string): void {
    for (const table of this.tables()) table.evictPartner(partnerId);
  }

  /** These removals are durable: their rows need no undo any more. */
  settle(partnerIds: readonly string[] | undefined): void {
    if (!partnerIds || partnerIds.length === 0) return;
    const settled = new Set(partnerIds);
    for (const table of this.tables()) table.settleRemoved?.(settled);
    for (const id of partnerIds) this.unsettled.delete(id);
  }

  /** The tables rolled back: the partners removed since the last durable write are back. */
  rolledBack(): void {
    this.pending = [];
    const restored = [...this.unsettled];
    this.unsettled.clear();
    for (const id of restored) for (const listener of this.restoredListeners) listener(id);
  }

  /** Told when a removed partner came back (its removal could not be written). */
  onRestored(listener: (partnerId: string) => void): void {
    this.restoredListeners.push(listener);
  }
}
