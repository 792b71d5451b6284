import type { Engine } from '../engine/engine.js';
import type { EventRecord } from '../store/records.js';

export type EventListener = (event: EventRecord) => void;

/**
 * Fans the engine's events out to the dashboard's live pages, per partner. One engine sink for the
 * whole server; each open page adds a listener and removes it when the browser goes away.
 */
export class EventBus {
  private readonly listeners = new Map<string, Set<EventListener>>();

  constructor(engine: Engine) {
    engine.onEvent((event) => {
      const set = this.listeners.get(event.partner_id);
      if (!set) return;
      for (const listener of set) listener(event);
    });
  }

  listen(partnerId: string, listener: EventListener): () => void {
    const set = this.listeners.get(partnerId) ?? new Set();
    set.add(listener);
    this.listeners.set(partnerId, set);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(partnerId);
    };
  }

  /** Open listeners of a partner (tests check that closed pages stop listening). */
  count(partnerId: string): number {
    return this.listeners.get(partnerId)?.size ?? 0;
  }
}
