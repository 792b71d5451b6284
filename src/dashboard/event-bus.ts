import type { Engine } from '../engine/engine.js';
import type { EventRecord } from '../store/records.js';
import type { Store } from '../store/store.js';

export type EventListener = (event: EventRecord) => void;

/**
 * Fans the engine's events out to the dashboard's live pages, per partner. One engine sink for the
 * whole server; each open page adds a listener and removes it when the browser goes away.
 */
export class EventBus {
  private readonly listeners = new Map<string, Set<EventListener>>();
  private readonly closers = new Map<EventListener, () => void>();

  constructor(engine: Engine, store?: Store) {
    engine.onEvent((event) => {
      const set = this.listeners.get(event.partner_id);
      if (!set) return;
      for (const listener of set) listener(event);
    });
    // Shared mode: a partner dropped from memory gets its events from its new owner now; each
    // open stream is told, ends, and the browser reconnects to where the partner lives.
    store?.onEvicted((partnerId) => {
      for (const listener of this.listeners.get(partnerId) ?? []) this.closers.get(listener)?.();
    });
  }

  /** Adds a listener; `closed` is called if the partner leaves this instance. Returns the remover. */
  listen(partnerId: string, listener: EventListener, closed?: () => void): () => void {
    const set = this.listeners.get(partnerId) ?? new Set();
    set.add(listener);
    this.listeners.set(partnerId, set);
    if (closed) this.closers.set(listener, closed);
    return () => {
      set.delete(listener);
      this.closers.delete(listener);
      if (set.size === 0) this.listeners.delete(partnerId);
    };
  }

  /** Open listeners of a partner (tests check that closed pages stop listening). */
  count(partnerId: string): number {
    return this.listeners.get(partnerId)?.size ?? 0;
  }
}
